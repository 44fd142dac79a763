// Stage run-hooks in JavaScript, written literally from its stage page (stage.md beside
// it): the test oracle the Python reference is proven against. Nothing in Python imports
// it; tests/oracle/program.mjs runs it. Its parts are the earlier stages' references.
import { matchHook } from "../matcher_and_dispatch/reference.mjs";
import { checkResult, mergePreToolUse, stdoutObject } from "../merge_decisions/reference.mjs";

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** Step 1: the commands of the event's handlers that run, each once, in settings order. */
function handlersThatRun(groups, toolName) {
  const ran = [];
  for (const group of groups ?? []) {
    if (!matchHook(group.matcher, toolName)) continue;
    for (const handler of group.hooks) {
      if (!ran.includes(handler.command)) ran.push(handler.command);
    }
  }
  return ran;
}

/** Step 2: each command's result, looked up once, only for the commands that run. */
function lookUp(results, event, ran) {
  if (ran.length === 0) return [];
  const byCommand = results[event];
  return ran.map((command) => {
    if (!isObject(byCommand) || !Object.hasOwn(byCommand, command)) {
      throw new TypeError(`results.${event} has no result for ${JSON.stringify(command)}`);
    }
    return byCommand[command];
  });
}

/** Step 4: one PostToolUse result's feedback and context. */
function readPost(result, feedback, contexts) {
  const stdout = result.stdout ?? "";
  const stderr = result.stderr ?? "";
  if (result.code === 2) {
    feedback.push(stderr.trim() || "hook blocked");
    return;
  }
  const out = stdoutObject(stdout);
  if (out === null) return;
  if (out.decision === "block" && typeof out.reason === "string" && out.reason.trim() !== "") {
    feedback.push(out.reason);
  }
  const hso = out.hookSpecificOutput;
  if (
    isObject(hso) &&
    hso.hookEventName === "PostToolUse" &&
    typeof hso.additionalContext === "string"
  ) {
    contexts.push(hso.additionalContext);
  }
}

/** Run the PreToolUse hooks, the tool and the PostToolUse hooks of ONE tool call. */
export function runHooks(hooks, tool, results) {
  const preRan = handlersThatRun(hooks.PreToolUse, tool.name);
  const merged = mergePreToolUse(lookUp(results, "PreToolUse", preRan), tool.input);
  const pre = {
    ran: preRan,
    decision: merged.decision,
    reason: merged.reason,
    contexts: merged.contexts,
  };
  if (merged.decision !== null && merged.decision !== "allow") {
    return { pre, tool: { runs: false, input: null, response: null }, post: null };
  }
  const ran = { runs: true, input: merged.input, response: tool.response ?? null };
  const postRan = handlersThatRun(hooks.PostToolUse, tool.name);
  const feedback = [];
  const contexts = [];
  for (const result of lookUp(results, "PostToolUse", postRan)) {
    readPost(result, feedback, contexts);
  }
  return { pre, tool: ran, post: { ran: postRan, feedback, contexts } };
}

/** Throws on what the page calls invalid input in one case, before anything runs. */
function checkCase(x, i) {
  const at = `cases[${i}]`;
  if (!isObject(x)) throw new TypeError(`${at} is not an object`);
  if (!isObject(x.hooks)) throw new TypeError(`${at}.hooks is not an object`);
  for (const event of ["PreToolUse", "PostToolUse"]) {
    const groups = x.hooks[event];
    if (groups === undefined || groups === null) continue;
    if (!Array.isArray(groups)) throw new TypeError(`${at}.hooks.${event} is not a list`);
    groups.forEach((group, g) => {
      const where = `${at}.hooks.${event}[${g}]`;
      if (!isObject(group)) throw new TypeError(`${where} is not an object`);
      if (group.matcher !== undefined && typeof group.matcher !== "string") {
        throw new TypeError(`${where}.matcher is not a string`);
      }
      if (!Array.isArray(group.hooks)) throw new TypeError(`${where}.hooks is not a list`);
      group.hooks.forEach((handler, h) => {
        if (!isObject(handler) || typeof handler.command !== "string") {
          throw new TypeError(`${where}.hooks[${h}] has no command string`);
        }
      });
    });
  }
  if (!isObject(x.tool)) throw new TypeError(`${at}.tool is not an object`);
  if (typeof x.tool.name !== "string") throw new TypeError(`${at}.tool.name is not a string`);
  if (x.tool.input === undefined) throw new TypeError(`${at}.tool has no input`);
  if (!isObject(x.results)) throw new TypeError(`${at}.results is not an object`);
  for (const event of ["PreToolUse", "PostToolUse"]) {
    const byCommand = x.results[event];
    if (byCommand === undefined || byCommand === null) continue;
    if (!isObject(byCommand)) throw new TypeError(`${at}.results.${event} is not an object`);
    for (const [command, result] of Object.entries(byCommand)) {
      checkResult(result, `${at}.results.${event}[${JSON.stringify(command)}]`);
    }
  }
}

/** `your_program.sh hook-run FILE` on the parsed file: {runs}, or a throw. */
export function program(c) {
  if (!Array.isArray(c.cases)) throw new TypeError("cases is not a list");
  return {
    runs: c.cases.map((x, i) => {
      checkCase(x, i);
      return runHooks(x.hooks, x.tool, x.results);
    }),
  };
}
