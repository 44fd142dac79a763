// The course's hook functions. Each stage page (hookcourse test --stage SLUG) states the
// rules exactly; the grader compares what program.mjs prints with JavaScript's answers.
// Every function throws "not implemented" until you write it.

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

/** out.decision === "block" -> {allowed: false, input: toolInput, injectedContext: null,
 *  reason: out.reason ?? "blocked by hook"}; otherwise {allowed: true,
 *  input: out.updatedInput ?? toolInput, injectedContext: out.additionalContext ?? null, reason: null}. */
export function applyPreToolUse(out, toolInput) {
  throw new Error("not implemented: applyPreToolUse");
}

/** Merge every PreToolUse hook's {code, stdout, stderr} into {decision, reason, input, contexts}:
 *  code === 2 denies; other codes have stdout read as JSON; deny > defer > ask > allow. */
export function mergePreToolUse(results, toolInput) {
  throw new Error("not implemented: mergePreToolUse");
}

/** Every stop attempt {stopHookActive, continues, reason, capped} until Claude stops. */
export function runStopLoop(hook, cap) {
  throw new Error("not implemented: runStopLoop");
}

/** Run the hooks around ONE tool call (stage run-hooks): {pre, tool, post}.
 *  The handlers of the groups whose matchHook(group.matcher, tool.name) is true run, each
 *  command once, in settings order; look up results[event][command] only for those. pre is
 *  mergePreToolUse of their results; the tool runs on decision null or "allow" (else
 *  {runs: false, input: null, response: null} and post null); then PostToolUse: exit 2's
 *  stderr.trim() || "hook blocked" or a block's non-blank reason is feedback, a PostToolUse
 *  additionalContext is a context. */
export function runHooks(hooks, tool, results) {
  throw new Error("not implemented: runHooks");
}
