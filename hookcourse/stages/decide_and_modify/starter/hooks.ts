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
