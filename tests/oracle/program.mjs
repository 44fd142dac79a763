// The course's program.ts, as a test oracle: each graded stage's JavaScript reference
// (hookcourse/stages/<stage>/reference.mjs, its `program`) under its command.
//
//   node program.mjs COMMAND FILE      -> what your_program.sh COMMAND FILE prints
//   node program.mjs batch < REQUEST   -> one JSON answer for a whole test run
//
// The command table is stages.mjs, written from the stage folders by
// `python -m hookcourse.dev update`.
// Batch mode exists so a test spawns the runtime once, not once per case. REQUEST is
// {"programs": [{"command", "path"}], "matches": [{"matcher"?, "tool"}],
//  "exits": [{"code"?, "stderr"?}], "applies": [{"output"?, "input"?}],
//  "merges": [a hook-merge case], "stops": [a hook-stop case],
//  "regexes": [{"pattern", "subject"}]}; a missing key stands for `undefined`.
// Each answer is what the program would print (without the newline) or, where the
// reference throws, {"throws": "<Error name>: <message>"}.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { applyPreToolUse } from "../../hookcourse/stages/decide_and_modify/reference.mjs";
import {
  interpretExitCode,
  matchHook,
} from "../../hookcourse/stages/matcher_and_dispatch/reference.mjs";
import { program as hookMerge } from "../../hookcourse/stages/merge_decisions/reference.mjs";
import { program as hookStop } from "../../hookcourse/stages/stop_loop/reference.mjs";
import { programs } from "./stages.mjs";

/** What `program.ts COMMAND PATH` prints, without console.log's newline. */
export function runProgram(command, path) {
  return JSON.stringify(programs[command](JSON.parse(readFileSync(path, "utf8"))));
}

function answer(thunk) {
  try {
    return thunk();
  } catch (e) {
    return { throws: `${e.name}: ${e.message}` };
  }
}

function regexAnswer({ pattern, subject }) {
  let re;
  try {
    re = new RegExp(pattern);
  } catch (e) {
    return { valid: false, test: false, error: e.message };
  }
  return { valid: true, test: re.test(subject), error: null };
}

function batch(request) {
  return {
    runtime: typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`,
    programs: (request.programs ?? []).map((p) => answer(() => runProgram(p.command, p.path))),
    matches: (request.matches ?? []).map((x) => answer(() => matchHook(x.matcher, x.tool))),
    exits: (request.exits ?? []).map((x) =>
      answer(() => JSON.stringify(interpretExitCode(x.code, x.stderr))),
    ),
    applies: (request.applies ?? []).map((x) =>
      answer(() => JSON.stringify(applyPreToolUse(x.output, x.input))),
    ),
    merges: (request.merges ?? []).map((x) =>
      answer(() => JSON.stringify(hookMerge({ cases: [x] }).merged[0])),
    ),
    stops: (request.stops ?? []).map((x) =>
      answer(() => JSON.stringify(hookStop({ cases: [x] }).loops[0])),
    ),
    regexes: (request.regexes ?? []).map(regexAnswer),
  };
}

function main([command, path]) {
  if (command === "batch") {
    console.log(JSON.stringify(batch(JSON.parse(readFileSync(0, "utf8")))));
  } else if (command in programs && path !== undefined) {
    console.log(runProgram(command, path));
  } else {
    console.error(`usage: program.mjs ${Object.keys(programs).join(" FILE | ")} FILE | batch < REQUEST`);
    process.exit(2);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
