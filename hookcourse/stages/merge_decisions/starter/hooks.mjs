/** Merge every PreToolUse hook's {code, stdout, stderr} into {decision, reason, input, contexts}:
 *  code === 2 denies; other codes have stdout read as JSON; deny > defer > ask > allow. */
export function mergePreToolUse(results, toolInput) {
  throw new Error("not implemented: mergePreToolUse");
}
