/** Shout a message (stage shout): message.trim().toUpperCase() + "!", or "" when blank. */
export function shout(message: string): string {
  throw new Error("not implemented: shout");
}
