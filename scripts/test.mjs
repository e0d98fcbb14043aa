// `npm test`: the suites a person runs often, in under a minute on two cores, with the time they
// took printed last. Lint, types, the slow server tests, the single binary and the browser suite
// are in `npm run validate`, which runs this too; CI runs validate (decision 021).
// Two parts, run at the same time:
//   1. unit and integration tests (vitest.config.ts, two workers);
//   2. the server tests not tagged `slow`, against the production build as a child process, two
//      files at a time (vitest.server.config.ts: it runs `npm run build` first when a source is
//      newer than build/).
// Much of the second part is spent waiting for its servers to start and answer, time the first
// part's work fills. The first part's output is shown as it comes; the second's is held until the
// first is done, then shown as it comes. Both run to their end; it exits with the first failing
// part's code.
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
 * Runs vitest with `args`, its output going to `write`: its exit code (1 when a signal ended it).
 * @param {string[]} args
 * @param {((chunk: Buffer) => void) | null} write null: this process's own stdout and stderr
 * @returns {Promise<number>}
 */
function run(args, write) {
  return new Promise((resolve) => {
    const child = spawn(vitest, args, {
      cwd: root,
      stdio: write ? ["ignore", "pipe", "pipe"] : "inherit",
      // Colours as on the terminal, though the output passes through a pipe.
      env: write && process.stdout.isTTY ? { ...process.env, FORCE_COLOR: "1" } : process.env,
    });
    child.stdout?.on("data", (/** @type {Buffer} */ c) => write?.(c));
    child.stderr?.on("data", (/** @type {Buffer} */ c) => write?.(c));
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The second part's output until the first is done (null: shown as it comes). */
/** @type {Buffer[] | null} */
let held = [];
const hold = (/** @type {Buffer} */ chunk) => (held ? held.push(chunk) : process.stdout.write(chunk));

const started = performance.now();
for (const part of parts) console.log(`[npm test] ${part.name}: vitest ${part.args.join(" ")}`);
/** @type {string[]} */
const times = [];
const codes = await Promise.all(
  parts.map(async (part, i) => {
    const code = await run(part.args, i === 0 ? null : hold);
    times[i] = `${part.name} ${seconds(performance.now() - started)} s`;
    if (i === 0) {
      console.log(`\n[npm test] ${part.name} done; ${parts[1].name}:\n`);
      for (const chunk of held ?? []) process.stdout.write(chunk);
      held = null;
    }
    if (code !== 0) console.error(`[npm test] ${part.name} failed (exit ${code})`);
    return code;
  }),
);
const failed = codes.find((c) => c !== 0) ?? 0;
console.log(`\n[npm test] ${times.join(", ")}`);
console.log(`npm test: ${seconds(performance.now() - started)} s${failed ? " (failed)" : ""}`);
process.exit(failed);
