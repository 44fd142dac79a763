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
