// A finished src/hooks.ts for the TypeScript starter, written for the tests: the stage
// pages' rules in the learner's language, so `hookcourse test` must pass every stage.
// A test copies it over the starter's src/hooks.ts, or patches one classic bug into it.

export function matchHook(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[\w|]+$/.test(matcher)) return matcher.split("|").includes(toolName);
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    return false;
  }
}

export interface ExitVerdict {
  block: boolean;
  warn: boolean;
  reason: string | null;
}

export function interpretExitCode(code: number, stderr: string): ExitVerdict {
  if (code === 0) return { block: false, warn: false, reason: null };
  if (code === 2) return { block: true, warn: false, reason: stderr.trim() || "hook blocked" };
  return { block: false, warn: true, reason: stderr.trim() || null };
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

export function applyPreToolUse(out: HookOutput, toolInput: Record<string, unknown>): HookEffect {
  if (out.decision === "block") {
    return { allowed: false, input: toolInput, injectedContext: null, reason: out.reason ?? "blocked by hook" };
  }
  return {
    allowed: true,
    input: out.updatedInput ?? toolInput,
    injectedContext: out.additionalContext ?? null,
    reason: null,
  };
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

const STRENGTH: Record<Decision, number> = { allow: 1, ask: 2, defer: 3, deny: 4 };

function jsonObject(stdout: string): Record<string, unknown> | null {
  const text = stdout.trimStart();
  if (!text.startsWith("{")) return null;
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

interface Reading {
  decision: Decision | null;
  reason: string | null;
  updatedInput?: Record<string, unknown>;
  context?: string;
}

function readPreToolUse(result: HookResult): Reading {
  const stdout = result.stdout ?? "";
  const stderr = result.stderr ?? "";
  if (result.code === 2) return { decision: "deny", reason: stderr.trim() || "hook blocked" };
  const out = jsonObject(stdout);
  if (out === null) return { decision: null, reason: null };
  const raw = out.hookSpecificOutput;
  const specific =
    typeof raw === "object" && raw !== null && !Array.isArray(raw) &&
    (raw as Record<string, unknown>).hookEventName === "PreToolUse"
      ? (raw as Record<string, unknown>)
      : null;
  const reading: Reading = { decision: null, reason: null };
  const word = specific?.permissionDecision;
  if (typeof word === "string" && word in STRENGTH) {
    reading.decision = word as Decision;
    const why = specific?.permissionDecisionReason;
    reading.reason = typeof why === "string" ? why : null;
  } else if (out.decision === "block" || out.decision === "approve") {
    reading.decision = out.decision === "block" ? "deny" : "allow";
    reading.reason = typeof out.reason === "string" ? out.reason : null;
  }
  const updated = specific?.updatedInput;
  if (typeof updated === "object" && updated !== null && !Array.isArray(updated)) {
    reading.updatedInput = updated as Record<string, unknown>;
  }
  if (typeof specific?.additionalContext === "string") reading.context = specific.additionalContext;
  return reading;
}

export function mergePreToolUse(results: HookResult[], toolInput: unknown): Merged {
  const readings = results.map(readPreToolUse);
  let winner: Reading | null = null;
  for (const reading of readings) {
    if (reading.decision === null) continue;
    if (winner === null || STRENGTH[reading.decision] > STRENGTH[winner.decision!]) winner = reading;
  }
  if (winner?.decision === "deny") {
    return { decision: "deny", reason: winner.reason, input: toolInput, contexts: [] };
  }
  let input = toolInput;
  const contexts: string[] = [];
  for (const reading of readings) {
    if (reading.updatedInput !== undefined) input = reading.updatedInput;
    if (reading.context !== undefined) contexts.push(reading.context);
  }
  return { decision: winner?.decision ?? null, reason: winner?.reason ?? null, input, contexts };
}

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

type StopAnswer = { kind: "block" | "halt" | "stop"; reason: string | null };

function readStop(result: HookResult): StopAnswer {
  if (result.code === 2) return { kind: "block", reason: (result.stderr ?? "").trim() || "hook blocked" };
  const out = jsonObject(result.stdout ?? "");
  if (out === null) return { kind: "stop", reason: null };
  if (out.continue === false) {
    return { kind: "halt", reason: typeof out.stopReason === "string" ? out.stopReason : null };
  }
  if (out.decision === "block" && typeof out.reason === "string" && out.reason.trim() !== "") {
    return { kind: "block", reason: out.reason };
  }
  return { kind: "stop", reason: null };
}

export function runStopLoop(hook: StopHook, cap: number): StopTurn[] {
  const turns: StopTurn[] = [];
  let stopHookActive = false;
  let blocks = 0;
  for (;;) {
    const answer = readStop(stopHookActive ? hook.whenActive : hook.whenInactive);
    if (answer.kind !== "block") {
      turns.push({ stopHookActive, continues: false, reason: answer.reason, capped: false });
      return turns;
    }
    blocks += 1;
    if (blocks > cap) {
      turns.push({ stopHookActive, continues: false, reason: null, capped: true });
      return turns;
    }
    turns.push({ stopHookActive, continues: true, reason: answer.reason, capped: false });
    stopHookActive = true;
  }
}

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
