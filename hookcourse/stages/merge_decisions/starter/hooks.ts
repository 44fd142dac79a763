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
