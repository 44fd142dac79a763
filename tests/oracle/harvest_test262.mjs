// Harvests test262's flag-less regular expressions into tests/oracle/test262_regex.json:
//
//   node tests/oracle/harvest_test262.mjs TEST262_GIT_DIR
//
// TEST262_GIT_DIR is a clone of github.com/tc39/test262 (bare or not); the files are
// read from its HEAD with git, so no work tree is needed. The harvest is not part of
// the test run: it installs @babel/parser into tests/oracle/.harvest/ (git-ignored) on
// first use and writes data only. From each test under the TREES below it keeps every
// regular expression the test constructs with no flags: a literal /.../ without flags,
// or RegExp(s) / new RegExp(s) with one argument that is a constant string. The
// subjects of a file are the string values written in it. Parse-negative tests (whose
// source must be a SyntaxError) are kept too and marked; their patterns are usually
// invalid ones. Files that the parser cannot read even with error recovery are listed
// on stderr and skipped.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const TREES = ["test/built-ins/RegExp", "test/annexB/built-ins/RegExp", "test/language/literals/regexp"];
const PARSER = "@babel/parser@8.1.2";
const HARVEST_DIR = fileURLToPath(new URL("./.harvest/", import.meta.url));
const OUTPUT = fileURLToPath(new URL("./test262_regex.json", import.meta.url));
// Subjects every pattern also meets: case-folding traps, line terminators, astral text.
const GENERIC_SUBJECTS = [
  "", "a", "A", "Bash", "abc", "0", "_", " ", "\n", "\r\n", "\u2028",
  "s", "S", "\u017f", "k", "K", "\u212a", "i", "I", "\u0131", "\u0130",
  "\u00e5", "\u00c5", "\u212b", "\u00df", "\u1e9e", "\u03c9", "\u2126",
  "\ud83d\ude00", "\ud800", "\udc00", "\ufeff",
];

function loadParser() {
  const require = createRequire(`${HARVEST_DIR}/`);
  const resolve = () => require.resolve("@babel/parser");
  if (!existsSync(`${HARVEST_DIR}/node_modules/@babel/parser`)) {
    console.error(`installing ${PARSER} into ${HARVEST_DIR}`);
    const npm = spawnSync("npm", ["install", "--silent", "--no-audit", "--no-fund", "--prefix", HARVEST_DIR, PARSER], {
      stdio: "inherit",
    });
    if (npm.status !== 0) throw new Error(`npm install ${PARSER} failed`);
  }
  return import(pathToFileURL(resolve()).href);
}

/** Every blob under TREES at HEAD, as [path, text], read through one `git cat-file`. */
function readTests(gitDir) {
  const git = (args, input) => execFileSync("git", ["-C", gitDir, ...args], { input, maxBuffer: 1 << 30 });
  const commit = git(["rev-parse", "HEAD"]).toString().trim();
  const paths = git(["ls-tree", "-r", "--name-only", "HEAD", "--", ...TREES])
    .toString()
    .split("\n")
    .filter((p) => p.endsWith(".js") && !p.endsWith("_FIXTURE.js"));
  const blob = git(["cat-file", "--batch"], paths.map((p) => `HEAD:${p}\n`).join(""));
  const files = [];
  let at = 0;
  for (const path of paths) {
    const headerEnd = blob.indexOf(10, at);
    const size = Number(blob.toString("latin1", at, headerEnd).split(" ")[2]);
    files.push([path, blob.toString("utf8", headerEnd + 1, headerEnd + 1 + size)]);
    at = headerEnd + 1 + size + 1;
  }
  return { commit, files };
}

/** True when the test's frontmatter says its source must fail to parse. */
function isParseNegative(text) {
  const front = /\/\*---([\s\S]*?)---\*\//.exec(text)?.[1] ?? "";
  return /negative:\s*\n\s*phase:\s*parse\s*\n\s*type:\s*SyntaxError/.test(front);
}

/** The value of an expression built only from string literals and `+`, or undefined. */
function constantString(node) {
  if (node.type === "StringLiteral") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked ?? undefined;
  if (node.type === "BinaryExpression" && node.operator === "+") {
    const left = constantString(node.left);
    const right = left === undefined ? undefined : constantString(node.right);
    return right === undefined ? undefined : left + right;
  }
  return undefined;
}

function* nodes(value) {
  if (Array.isArray(value)) {
    for (const item of value) yield* nodes(item);
  } else if (value !== null && typeof value === "object") {
    if (typeof value.type === "string") yield value;
    for (const [key, child] of Object.entries(value)) {
      if (key !== "loc" && key !== "extra" && key !== "comments") yield* nodes(child);
    }
  }
}

function harvestFile(parse, text) {
  let ast;
  for (const sourceType of ["script", "module"]) {
    try {
      ast = parse(text, { sourceType, errorRecovery: true, allowReturnOutsideFunction: true });
      break;
    } catch {
      // try the other source type; a file neither reads is reported by the caller
    }
  }
  if (ast === undefined) return undefined;
  const patterns = new Set();
  const subjects = new Set();
  for (const node of nodes(ast.program)) {
    if (node.type === "RegExpLiteral" && node.flags === "") patterns.add(node.pattern);
    const isRegExpCall =
      (node.type === "NewExpression" || node.type === "CallExpression") &&
      node.callee.type === "Identifier" &&
      node.callee.name === "RegExp" &&
      node.arguments.length === 1;
    const source = isRegExpCall ? constantString(node.arguments[0]) : undefined;
    if (source !== undefined) patterns.add(source);
    const string = node.type === "StringLiteral" || node.type === "TemplateLiteral" ? constantString(node) : undefined;
    if (string !== undefined) subjects.add(string);
  }
  return { patterns: [...patterns], subjects: [...subjects] };
}

async function main([gitDir]) {
  if (gitDir === undefined) {
    console.error("usage: node tests/oracle/harvest_test262.mjs TEST262_GIT_DIR");
    process.exit(2);
  }
  const { parse } = await loadParser();
  const { commit, files } = readTests(gitDir);
  const license = execFileSync("git", ["-C", gitDir, "show", "HEAD:LICENSE"]).toString();
  const entries = [];
  const unreadable = [];
  for (const [path, text] of files) {
    const found = harvestFile(parse, text);
    if (found === undefined) unreadable.push(path);
    else if (found.patterns.length > 0) {
      const negative = isParseNegative(text) ? { negative: true } : {};
      entries.push({ file: path, ...negative, ...found });
    }
  }
  const about = {
    about:
      "Flag-less regular expressions harvested from test262 (tests/oracle/harvest_test262.mjs) with " +
      "the string values of the same test file as subjects; every pattern also meets generic_subjects. " +
      "Data derived from test262, under its license below; no test262 code is stored here.",
    source: "https://github.com/tc39/test262",
    commit,
    trees: TREES,
    parser: PARSER,
    license,
    generic_subjects: GENERIC_SUBJECTS,
  };
  const head = JSON.stringify(about, null, 1).slice(0, -2);
  const body = entries.map((entry) => JSON.stringify(entry)).join(",\n");
  writeFileSync(OUTPUT, `${head},\n"files": [\n${body}\n]}\n`);
  const patterns = entries.reduce((n, e) => n + e.patterns.length, 0);
  console.log(`${entries.length} files with patterns, ${patterns} patterns, from ${files.length} files at ${commit}`);
  for (const path of unreadable) console.error(`unreadable (skipped): ${path}`);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(`harvest_test262.mjs: ${error.message.split("\n")[0]}`);
  process.exit(1);
}
