// The grader's adapter: ./your_program.sh COMMAND FILE reads the case file, maps your
// functions over its cases and prints ONE JSON document on stdout (logs go to stderr).
import { readFileSync } from "node:fs";
import {
@IMPORTS@
} from "./src/hooks.ts";

type Case = Record<string, any>;

const commands: Record<string, (file: Case) => unknown> = {
@COMMANDS@
};

function list(file: Case, key: string): Case[] {
  const value = file[key];
  if (!Array.isArray(value)) invalid(`${key} is not a list`);
  return value;
}

function invalid(problem: string): never {
  console.error(`invalid case file: ${problem}`);
  process.exit(2);
}

const [command, path] = process.argv.slice(2);
const run = commands[command];
if (run === undefined || path === undefined) {
  console.error(`usage: ./your_program.sh ${Object.keys(commands).join("|")} FILE`);
  process.exit(2);
}
let file: unknown;
try {
  file = JSON.parse(readFileSync(path, "utf8"));
} catch (error) {
  invalid(`${path}: ${(error as Error).message}`);
}
if (typeof file !== "object" || file === null || Array.isArray(file)) invalid("not an object");
console.log(JSON.stringify(run(file as Case)));
