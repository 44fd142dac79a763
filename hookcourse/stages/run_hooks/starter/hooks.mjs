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
