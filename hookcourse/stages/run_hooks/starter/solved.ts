export interface Handler {
  command: string;
}

export interface Group {
  matcher?: string;
  hooks: Handler[];
}

export interface Hooks {
  PreToolUse?: Group[] | null;
  PostToolUse?: Group[] | null;
}

export interface ToolCall {
  name: string;
  input: unknown;
  response?: unknown;
}

export type Results = Partial<Record<"PreToolUse" | "PostToolUse", Record<string, HookResult> | null>>;

export interface Run {
  pre: { ran: string[]; decision: Decision | null; reason: string | null; contexts: string[] };
  tool: { runs: boolean; input: unknown; response: unknown };
  post: { ran: string[]; feedback: string[]; contexts: string[] } | null;
}

function handlersThatRun(groups: Group[] | null | undefined, toolName: string): string[] {
  const ran: string[] = [];
  for (const group of groups ?? []) {
    if (!matchHook(group.matcher, toolName)) continue;
    for (const handler of group.hooks) if (!ran.includes(handler.command)) ran.push(handler.command);
  }
  return ran;
}

function lookUp(results: Results, event: "PreToolUse" | "PostToolUse", ran: string[]): HookResult[] {
  if (ran.length === 0) return [];
  const byCommand = results[event]!;
  return ran.map((command) => {
    if (!Object.hasOwn(byCommand, command)) throw new Error(`no ${event} result for ${command}`);
    return byCommand[command];
  });
}

export function runHooks(hooks: Hooks, tool: ToolCall, results: Results): Run {
  const preRan = handlersThatRun(hooks.PreToolUse, tool.name);
  const merged = mergePreToolUse(lookUp(results, "PreToolUse", preRan), tool.input);
  const pre = { ran: preRan, decision: merged.decision, reason: merged.reason, contexts: merged.contexts };
  if (merged.decision !== null && merged.decision !== "allow") {
    return { pre, tool: { runs: false, input: null, response: null }, post: null };
  }
  const ran = { runs: true, input: merged.input, response: tool.response ?? null };
  const postRan = handlersThatRun(hooks.PostToolUse, tool.name);
  const feedback: string[] = [];
  const contexts: string[] = [];
  for (const result of lookUp(results, "PostToolUse", postRan)) {
    if (result.code === 2) {
      feedback.push((result.stderr ?? "").trim() || "hook blocked");
      continue;
    }
    const out = jsonObject(result.stdout ?? "");
    if (out === null) continue;
    if (out.decision === "block" && typeof out.reason === "string" && out.reason.trim() !== "") {
      feedback.push(out.reason);
    }
    const raw = out.hookSpecificOutput as Record<string, unknown> | undefined;
    if (
      typeof raw === "object" && raw !== null && !Array.isArray(raw) &&
      raw.hookEventName === "PostToolUse" && typeof raw.additionalContext === "string"
    ) {
      contexts.push(raw.additionalContext);
    }
  }
  return { pre, tool: ran, post: { ran: postRan, feedback, contexts } };
}
