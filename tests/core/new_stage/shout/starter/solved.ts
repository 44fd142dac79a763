export function shout(message: string): string {
  const text = message.trim();
  return text ? text.toUpperCase() + "!" : "";
}
