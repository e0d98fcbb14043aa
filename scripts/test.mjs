// `npm test`: the suites a person runs often, in under a minute on two cores, with the time they
// took printed last. Lint, types, the slow server tests, the single binary and the browser suite
// are in `npm run validate`, which runs this too; CI runs validate (decision 021).
//   1. unit and integration tests (vitest.config.ts, two workers);
//   2. the server tests not tagged `slow`, against the production build as a child process, two
//      files at a time (vitest.server.config.ts: it runs `npm run build` first when a source is
//      newer than build/).
// It stops at the first part that fails and exits with its code.
import { spawn } from "node:child_process";
import path from "node:path";
import url from "node:url";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const vitest = path.join(root, "node_modules", ".bin", "vitest");

const parts = [
  { name: "unit and integration", args: ["run"] },
  {
    name: "server (fast)",
    args: ["run", "-c", "vitest.server.config.ts", "--tags-filter=!slow"],
  },
];

/** @param {number} ms */
const seconds = (ms) => (ms / 1000).toFixed(1);

/**
 * Runs vitest with `args`: its exit code (1 when a signal ended it).
 * @param {string[]} args
 * @returns {Promise<number>}
 */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(vitest, args, { cwd: root, stdio: "inherit" });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const started = performance.now();
const times = [];
let failed = 0;
for (const part of parts) {
  const t = performance.now();
  console.log(`\n[npm test] ${part.name}: vitest ${part.args.join(" ")}`);
  const code = await run(part.args);
  times.push(`${part.name} ${seconds(performance.now() - t)} s`);
  if (code !== 0) {
    failed = code;
    console.error(`[npm test] ${part.name} failed (exit ${code})`);
    break;
  }
}
console.log(`\n[npm test] ${times.join(", ")}`);
console.log(`npm test: ${seconds(performance.now() - started)} s${failed ? " (failed)" : ""}`);
process.exit(failed);
