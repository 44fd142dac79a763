// Stage decide-and-modify in JavaScript, written literally from the stage pseudo-code
// (seed 003): the test oracle the Python reference is proven against. Nothing in Python
// imports it; tests/oracle/program.mjs runs it.

/** Fold a PreToolUse hook's stdout JSON into the effect on the pending tool call. */
export function applyPreToolUse(out, toolInput) {
  if (out.decision === "block") {
    return {
      allowed: false,
      input: toolInput,
      injectedContext: null,
      reason: out.reason ?? "blocked by hook",
    };
  }
  return {
    allowed: true,
    input: out.updatedInput ?? toolInput,
    injectedContext: out.additionalContext ?? null,
    reason: null,
  };
}

/** `your_program.sh hook-apply FILE` on the parsed file. */
export function program(c) {
  return { effects: c.cases.map((x) => applyPreToolUse(x.output, x.input)) };
}
