// Stage merge-decisions in JavaScript, written literally from its stage page (stage.md beside
// it): the test oracle the Python reference is proven against. Nothing in Python imports
// it; tests/oracle/program.mjs runs it.

const DECISIONS = ["allow", "ask", "defer", "deny"]; // weakest first

/** stdout as the page reads it: trimStart() starts with "{", parses, and is an object. */
export function stdoutObject(stdout) {
  const text = stdout.trimStart();
  if (!text.startsWith("{")) return null;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const stringOrNull = (v) => (typeof v === "string" ? v : null);

function readOne(result) {
  const stdout = result.stdout ?? "";
  const stderr = result.stderr ?? "";
  if (result.code === 2) return { decision: "deny", reason: stderr.trim() || "hook blocked" };
  const out = stdoutObject(stdout);
  if (out === null) return {};
  const hso =
    isObject(out.hookSpecificOutput) && out.hookSpecificOutput.hookEventName === "PreToolUse"
      ? out.hookSpecificOutput
      : null;
  const read = {};
  if (hso !== null && DECISIONS.includes(hso.permissionDecision)) {
    read.decision = hso.permissionDecision;
    read.reason = stringOrNull(hso.permissionDecisionReason);
  } else if (out.decision === "block" || out.decision === "approve") {
    read.decision = out.decision === "block" ? "deny" : "allow";
    read.reason = stringOrNull(out.reason);
  }
  if (hso !== null && isObject(hso.updatedInput)) read.updatedInput = hso.updatedInput;
  if (hso !== null && typeof hso.additionalContext === "string") {
    read.context = hso.additionalContext;
  }
  return read;
}

/** Merge the results of every PreToolUse hook that ran, in the order they finished. */
export function mergePreToolUse(results, toolInput) {
  const reads = results.map(readOne);
  const decided = reads.filter((r) => r.decision !== undefined);
  if (decided.length === 0) {
    return mergedInput(null, null, reads, toolInput);
  }
  const strongest = Math.max(...decided.map((r) => DECISIONS.indexOf(r.decision)));
  const winner = decided.find((r) => DECISIONS.indexOf(r.decision) === strongest);
  if (winner.decision === "deny") {
    return { decision: "deny", reason: winner.reason, input: toolInput, contexts: [] };
  }
  return mergedInput(winner.decision, winner.reason, reads, toolInput);
}

function mergedInput(decision, reason, reads, toolInput) {
  const rewrites = reads.filter((r) => r.updatedInput !== undefined);
  return {
    decision,
    reason,
    input: rewrites.length ? rewrites[rewrites.length - 1].updatedInput : toolInput,
    contexts: reads.filter((r) => r.context !== undefined).map((r) => r.context),
  };
}

/** Throws on what the page calls invalid input for one hook result. */
export function checkResult(result, where) {
  if (!isObject(result)) throw new TypeError(`${where} is not an object`);
  for (const key of ["stdout", "stderr"]) {
    const v = result[key];
    if (v !== undefined && v !== null && typeof v !== "string") {
      throw new TypeError(`${where}.${key} is neither a string nor null`);
    }
  }
}

/** `your_program.sh hook-merge FILE` on the parsed file: {merged}, or a throw. */
export function program(c) {
  if (!Array.isArray(c.cases)) throw new TypeError("cases is not a list");
  return {
    merged: c.cases.map((x, i) => {
      if (!Array.isArray(x.results)) throw new TypeError(`cases[${i}].results is not a list`);
      if (x.toolInput === undefined) throw new TypeError(`cases[${i}] has no toolInput`);
      x.results.forEach((r, j) => checkResult(r, `cases[${i}].results[${j}]`));
      return mergePreToolUse(x.results, x.toolInput);
    }),
  };
}
