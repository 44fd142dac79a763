// hookcourse.js.regex under Pyodide in node, where regress is missing and node's own
// RegExp is the backend. Prints, for each [pattern, subject] pair of PAIRS_JSON, the
// answers regex_answers() gives, as one JSON document on stdout.
//   node pyodide_regex.mjs PYODIDE_DIR REPO PAIRS_JSON
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, repo, pairsFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.mountNodeFS("/repo", repo);
pyodide.globals.set("pairs_json", readFileSync(pairsFile, "utf8"));
const answers = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/repo")
sys.path.insert(0, "/repo/tests/lite")
from regex_answers import regex_answers
json.dumps(regex_answers(json.loads(pairs_json)))
`);
process.stdout.write(answers);
