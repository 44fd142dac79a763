/** undefined / "" / "*" -> true; /^[\w|]+$/ -> a list of names split on "|";
 *  anything else -> new RegExp(matcher).test(toolName), false when it does not compile. */
export function matchHook(matcher, toolName) {
  throw new Error("not implemented: matchHook");
}

/** code === 0 -> {block: false, warn: false, reason: null}; code === 2 -> block, reason
 *  stderr.trim() || "hook blocked"; any other code -> warn, reason stderr.trim() || null. */
export function interpretExitCode(code, stderr) {
  throw new Error("not implemented: interpretExitCode");
}
