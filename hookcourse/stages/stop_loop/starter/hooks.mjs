/** Every stop attempt {stopHookActive, continues, reason, capped} until Claude stops. */
export function runStopLoop(hook, cap) {
  throw new Error("not implemented: runStopLoop");
}
