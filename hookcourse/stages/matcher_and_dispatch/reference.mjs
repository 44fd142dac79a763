// Stage matcher-and-dispatch in JavaScript, written literally from the stage pseudo-code
// (seed 000): the test oracle the Python reference is proven against. Nothing in Python
// imports it; tests/oracle/program.mjs runs it.

/** `matcher` undefined / "" / "*" = all; `A|B` = name list; anything else = JS regex. */
export function matchHook(matcher, toolName) {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (/^[\w|]+$/.test(matcher)) return matcher.split("|").includes(toolName);
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    return false;
  }
}

/** 0 = parse stdout, 2 = block with stderr as the reason, anything else = warning. */
export function interpretExitCode(code, stderr) {
  if (code === 0) return { block: false, warn: false, reason: null };
  if (code === 2) return { block: true, warn: false, reason: stderr.trim() || "hook blocked" };
  return { block: false, warn: true, reason: stderr.trim() || null };
}

/** `your_program.sh hook-match FILE` on the parsed file. */
export function program(c) {
  return {
    matches: c.cases.map((x) => matchHook(x.matcher, x.tool)),
    // The seed's exitCases are { code, stderr? }: a missing stderr reads as "".
    exits: c.exitCases.map((x) => interpretExitCode(x.code, x.stderr ?? "")),
  };
}
