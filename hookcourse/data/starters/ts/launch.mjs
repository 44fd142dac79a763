// Runs program.ts: with Node's own type stripping where this Node has it on (22.18, 23.6 and
// later), else through tsx, the TypeScript runner package.json pins (npm install).
if (!process.features.typescript) {
  let api;
  try {
    api = await import("tsx/esm/api");
  } catch {
    console.error(
      "TypeScript runner tsx is not installed: run `npm install` once in this folder",
    );
    process.exit(1);
  }
  api.register();
}
await import("./program.ts");
