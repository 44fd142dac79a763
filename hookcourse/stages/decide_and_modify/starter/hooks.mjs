/** out.decision === "block" -> {allowed: false, input: toolInput, injectedContext: null,
 *  reason: out.reason ?? "blocked by hook"}; otherwise {allowed: true,
 *  input: out.updatedInput ?? toolInput, injectedContext: out.additionalContext ?? null, reason: null}. */
export function applyPreToolUse(out, toolInput) {
  throw new Error("not implemented: applyPreToolUse");
}
