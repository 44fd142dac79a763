// A learner's matcher-and-dispatch and decide-and-modify stages in JavaScript:
//   node program.mjs [regex-names] hook-match|hook-apply FILE
// With regex-names, the matcher sends name lists such as "Edit|Write" to RegExp too,
// the classic mistake ("Edit|Write" then also matches "MultiEdit").
import { readFileSync } from "node:fs";

const mistakes = new Set();

function matchHook(matcher, toolName) {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (!mistakes.has("regex-names") && /^[\w|]+$/.test(matcher)) {
    return matcher.split("|").includes(toolName);
  }
  try {
    return new RegExp(matcher).test(toolName);
  } catch {
    return false;
  }
}

function interpretExitCode(code, stderr) {
  if (code === 0) return { block: false, warn: false, reason: null };
  if (code === 2) return { block: true, warn: false, reason: stderr.trim() || "hook blocked" };
  return { block: false, warn: true, reason: stderr.trim() || null };
}

function applyPreToolUse(out, toolInput) {
  if (out.decision === "block") {
    return { allowed: false, input: toolInput, injectedContext: null, reason: out.reason ?? "blocked by hook" };
  }
  return {
    allowed: true,
    input: out.updatedInput ?? toolInput,
    injectedContext: out.additionalContext ?? null,
    reason: null,
  };
}

const stages = {
  "hook-match": (c) => ({
    matches: c.cases.map((x) => matchHook(x.matcher, x.tool)),
    exits: c.exitCases.map((x) => interpretExitCode(x.code, x.stderr ?? "")),
  }),
  "hook-apply": (c) => ({ effects: c.cases.map((x) => applyPreToolUse(x.output, x.input)) }),
};

const args = process.argv.slice(2);
while (args.length > 2) mistakes.add(args.shift());
const [command, path] = args;
console.log(JSON.stringify(stages[command](JSON.parse(readFileSync(path, "utf8")))));
