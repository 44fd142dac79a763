// The course's hook functions. Each stage page (hookcourse test --stage SLUG) states the
// rules exactly; the grader compares what program.ts prints with JavaScript's answers.
// Every function throws "not implemented" until you write it.

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

export interface HookOutput {
  decision?: "block" | "allow";
  reason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
}

export interface HookEffect {
  allowed: boolean;
  input: Record<string, unknown>;
  injectedContext: string | null;
  reason: string | null;
}

/** Apply a PreToolUse hook's output to a pending tool call (stage decide-and-modify).
 *  out.decision === "block" -> {allowed: false, input: toolInput, injectedContext: null,
 *  reason: out.reason ?? "blocked by hook"}; otherwise {allowed: true,
 *  input: out.updatedInput ?? toolInput, injectedContext: out.additionalContext ?? null, reason: null}. */
export function applyPreToolUse(out: HookOutput, toolInput: Record<string, unknown>): HookEffect {
  throw new Error("not implemented: applyPreToolUse");
}

export interface HookResult {
  code: number;
  stdout?: string | null;
  stderr?: string | null;
}

export type Decision = "allow" | "deny" | "ask" | "defer";

export interface Merged {
  decision: Decision | null;
  reason: string | null;
  input: unknown;
  contexts: string[];
}

/** Merge the results of every PreToolUse hook that ran, in order (stage merge-decisions).
 *  code === 2 denies (reason stderr.trim() || "hook blocked"); any other code has its stdout
 *  read as JSON (trimStart() starts with "{", parses, is an object); deny > defer > ask > allow,
 *  the first winner's reason; on deny input is toolInput and contexts []; otherwise the last
 *  updatedInput and every additionalContext in order. */
export function mergePreToolUse(results: HookResult[], toolInput: unknown): Merged {
  throw new Error("not implemented: mergePreToolUse");
}

/** A Stop hook, by what it answers with stop_hook_active false and true. */
export interface StopHook {
  whenInactive: HookResult;
  whenActive: HookResult;
}

export interface StopTurn {
  stopHookActive: boolean;
  continues: boolean;
  reason: string | null;
  capped: boolean;
}

/** Every stop attempt until Claude really stops (stage stop-loop).
 *  Each attempt reads whenActive once a block was seen, else whenInactive: exit 2 or a JSON
 *  {decision: "block", reason} with a non-blank reason blocks; {continue: false} halts (and
 *  outranks a block); anything else stops. The block after `cap` consecutive ones is capped. */
export function runStopLoop(hook: StopHook, cap: number): StopTurn[] {
  throw new Error("not implemented: runStopLoop");
}

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
