// The throwaway stage's JavaScript reference: program.mjs's shape for one command.
import { readFileSync } from "node:fs";

const shout = (message) => {
  const text = message.trim();
  return text ? text.toUpperCase() + "!" : "";
};
const c = JSON.parse(readFileSync(process.argv[2], "utf8"));
console.log(JSON.stringify({ shouts: c.cases.map((x) => shout(x.message)) }));
