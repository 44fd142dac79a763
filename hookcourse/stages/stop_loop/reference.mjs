// Stage stop-loop in JavaScript, written literally from its stage page (stage.md beside
// it): the test oracle the Python reference is proven against. Nothing in Python imports
// it; tests/oracle/program.mjs runs it.
import { checkResult, stdoutObject } from "../merge_decisions/reference.mjs";

function readAnswer(answer) {
  const stdout = answer.stdout ?? "";
  const stderr = answer.stderr ?? "";
  if (answer.code === 2) return { kind: "block", reason: stderr.trim() || "hook blocked" };
  const out = stdoutObject(stdout);
  if (out !== null && out.continue === false) {
    return { kind: "halt", reason: typeof out.stopReason === "string" ? out.stopReason : null };
  }
  if (out !== null && out.decision === "block" && typeof out.reason === "string") {
    if (out.reason.trim() !== "") return { kind: "block", reason: out.reason };
  }
  return { kind: "stop", reason: null };
}

/** Every stop attempt until Claude really stops. */
export function runStopLoop(hook, cap) {
  const turns = [];
  let stopHookActive = false;
  let blocks = 0;
  for (;;) {
    const { kind, reason } = readAnswer(stopHookActive ? hook.whenActive : hook.whenInactive);
    if (kind === "halt") {
      turns.push({ stopHookActive, continues: false, reason, capped: false });
      return turns;
    }
    if (kind === "stop") {
      turns.push({ stopHookActive, continues: false, reason: null, capped: false });
      return turns;
    }
    blocks += 1;
    if (blocks > cap) {
      turns.push({ stopHookActive, continues: false, reason: null, capped: true });
      return turns;
    }
    turns.push({ stopHookActive, continues: true, reason, capped: false });
    stopHookActive = true;
  }
}

/** `your_program.sh hook-stop FILE` on the parsed file: {loops}, or a throw. */
export function program(c) {
  if (!Array.isArray(c.cases)) throw new TypeError("cases is not a list");
  return {
    loops: c.cases.map((x, i) => {
      const hook = x.hook;
      if (typeof hook !== "object" || hook === null || Array.isArray(hook)) {
        throw new TypeError(`cases[${i}].hook is not an object`);
      }
      for (const key of ["whenInactive", "whenActive"]) {
        if (!(key in hook)) throw new TypeError(`cases[${i}].hook has no ${key}`);
        checkResult(hook[key], `cases[${i}].hook.${key}`);
      }
      const cap = x.cap ?? 8;
      if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 1 || cap > 100) {
        throw new RangeError(`cases[${i}].cap is not an integer from 1 to 100`);
      }
      return runStopLoop(hook, cap);
    }),
  };
}
