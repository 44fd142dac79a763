// The course's hook functions. Each stage page (hookcourse test --stage SLUG) states the
// rules exactly; the grader compares what program.ts prints with JavaScript's answers.
// Every function throws "not implemented" until you write it.

@STAGES@
