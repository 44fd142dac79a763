/** Match a hook `matcher` against a tool name (stage matcher-and-dispatch).
 *  undefined / "" / "*" -> true; /^[\w|]+$/ -> a list of names split on "|";
 *  anything else -> new RegExp(matcher).test(toolName), false when it does not compile. */
export function matchHook(matcher: string | undefined, toolName: string): boolean {
  throw new Error("not implemented: matchHook");
}

export interface ExitVerdict {
  block: boolean;
  warn: boolean;
  reason: string | null;
}

/** Read a hook's exit code (stage matcher-and-dispatch).
 *  code === 0 -> success; code === 2 -> block, reason stderr.trim() || "hook blocked";
 *  any other code -> warn, reason stderr.trim() || null. */
export function interpretExitCode(code: number, stderr: string): ExitVerdict {
  throw new Error("not implemented: interpretExitCode");
}
