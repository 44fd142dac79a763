/** One group of the settings' hooks: a matcher and its handlers. */
export interface Group {
  matcher?: string;
  hooks: { command: string }[];
}

export interface Hooks {
  PreToolUse?: Group[] | null;
  PostToolUse?: Group[] | null;
}

/** The tool call; `response` is what the tool returns if it runs. */
export interface ToolCall {
  name: string;
  input: unknown;
  response?: unknown;
}

/** Each handler's result, by event, then by command. */
export type Results = Partial<Record<"PreToolUse" | "PostToolUse", Record<string, HookResult> | null>>;

export interface Run {
  pre: { ran: string[]; decision: Decision | null; reason: string | null; contexts: string[] };
  tool: { runs: boolean; input: unknown; response: unknown };
  post: { ran: string[]; feedback: string[]; contexts: string[] } | null;
}

/** Run the hooks around ONE tool call (stage run-hooks).
 *  The handlers of the groups whose matchHook(group.matcher, tool.name) is true run, each
 *  command once, in settings order; look up results[event][command] only for those. pre is
 *  mergePreToolUse of their results; the tool runs on decision null or "allow" (else
 *  {runs: false, input: null, response: null} and post null); then PostToolUse: exit 2's
 *  stderr.trim() || "hook blocked" or a block's non-blank reason is feedback, a PostToolUse
 *  additionalContext is a context. */
export function runHooks(hooks: Hooks, tool: ToolCall, results: Results): Run {
  throw new Error("not implemented: runHooks");
}
