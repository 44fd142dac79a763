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
