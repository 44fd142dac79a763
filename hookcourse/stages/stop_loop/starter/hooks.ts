/** A Stop hook, by what it answers with stop_hook_active false and true. */
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

/** Every stop attempt until Claude really stops (stage stop-loop).
 *  Each attempt reads whenActive once a block was seen, else whenInactive: exit 2 or a JSON
 *  {decision: "block", reason} with a non-blank reason blocks; {continue: false} halts (and
 *  outranks a block); anything else stops. The block after `cap` consecutive ones is capped. */
export function runStopLoop(hook: StopHook, cap: number): StopTurn[] {
  throw new Error("not implemented: runStopLoop");
}
