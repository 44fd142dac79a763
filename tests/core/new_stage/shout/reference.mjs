// Stage shout in JavaScript: the oracle its Python reference is proven against.

export function shout(message) {
  const text = message.trim();
  return text ? text.toUpperCase() + "!" : "";
}

/** `your_program.sh hook-shout FILE` on the parsed file. */
export function program(c) {
  return { shouts: c.cases.map((x) => shout(x.message)) };
}
