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
