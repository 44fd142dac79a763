// A finished src/hooks.ts for the TypeScript starter, written for the tests: the stage
// pages' rules in the learner's language, so `hookcourse test` must pass every stage.
// A test copies it over the starter's src/hooks.ts, or patches one classic bug into it.

@STAGES@
