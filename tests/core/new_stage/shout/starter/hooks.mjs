/** message.trim().toUpperCase() + "!", or "" when blank. */
export function shout(message) {
  throw new Error("not implemented: shout");
}
