// Rewrites fixtures/<stage>/extra/<name>/expected.json from the oracle:
//   node tests/oracle/regenerate.mjs
// The expected outputs are the oracle's, never hand-edited; tests/core checks that
// the committed files still equal what this script writes.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProgram } from "./program.mjs";
import stages from "./stages.json" with { type: "json" };

// The course's reference runs on Node 20; later engines accept ES2025 regex syntax
// (modifier groups, duplicate group names) that Node 20 rejects.
if (!process.version.startsWith("v20.")) {
  console.error(`regenerate.mjs: run it with Node 20 (this is ${process.version})`);
  process.exit(1);
}
const root = fileURLToPath(new URL("../../fixtures/", import.meta.url));
for (const [stage, command] of Object.entries(stages)) {
  const extra = join(root, stage, "extra");
  if (!existsSync(extra)) continue;
  for (const name of readdirSync(extra).sort()) {
    const dir = join(extra, name);
    writeFileSync(join(dir, "expected.json"), `${runProgram(command, join(dir, "case.json"))}\n`);
    console.log(`${stage}/extra/${name}`);
  }
}
