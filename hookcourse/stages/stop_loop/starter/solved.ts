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
