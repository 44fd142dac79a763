// The course's reference functions, written literally from the stage pseudo-code
// (seeds 000 and 003). This file is a test oracle only: nothing in hookcourse/ imports it.

/** `matcher` undefined / "" / "*" = all; `A|B` = name list; anything else = JS regex. */
export function matchHook(matcher, toolName) {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[\w|]+$/.test(matcher)) return matcher.split("|").includes(toolName);
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    return false;
  }
}

/** 0 = parse stdout, 2 = block with stderr as the reason, anything else = warning. */
export function interpretExitCode(code, stderr) {
  if (code === 0) return { block: false, warn: false, reason: null };
  if (code === 2) return { block: true, warn: false, reason: stderr.trim() || "hook blocked" };
  return { block: false, warn: true, reason: stderr.trim() || null };
}

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
