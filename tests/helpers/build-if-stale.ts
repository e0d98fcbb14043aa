/**
 * Vitest globalSetup of the server suites (vitest.server.config.ts): they run the production build
 * as a child process, so they need `build/` as it stands for the sources. When any source is newer
 * than the oldest build output (or an output is missing), `npm run build` runs first (about 3 s);
 * otherwise nothing happens. `npm test`, `npm run test:server`, `test:slow` and a bare
 * `npx vitest run -c vitest.server.config.ts` all go through here.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** What `npm run build` reads (folders are walked; their own mtime counts too, for a deleted file). */
const SOURCES = [
  "app",
  "server",
  "migrations",
  "public",
  "remix.config.js",
  "tailwind.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];
/** What it writes: the one server module (the app, the HTTP server and the operator commands), as an ES module and as a script with its code cache, and the packages read apart. */
const OUTPUTS = ["build/index.js", "build/server.cjs", "build/server.cjs.cache", "build/apart/stripe.cjs"];
/** Written by the build itself, never read by it. */
const SKIP = new Set([path.join(root, "public/build")]);

function newest(p: string): { mtime: number; file: string } {
  if (SKIP.has(p) || !fs.existsSync(p)) return { mtime: 0, file: p };
  const stat = fs.statSync(p);
  let best = { mtime: stat.mtimeMs, file: p };
  if (stat.isDirectory())
    for (const name of fs.readdirSync(p)) {
      const n = newest(path.join(p, name));
      if (n.mtime > best.mtime) best = n;
    }
  return best;
}

/** Why the build is stale ("" when it is current). */
export function staleBecause(): string {
  const outputs = OUTPUTS.map((o) => path.join(root, o));
  const missing = outputs.find((o) => !fs.existsSync(o));
  if (missing) return `${path.relative(root, missing)} is missing`;
  const built = Math.min(...outputs.map((o) => fs.statSync(o).mtimeMs));
  let source = { mtime: 0, file: "" };
  for (const s of SOURCES) {
    const n = newest(path.join(root, s));
    if (n.mtime > source.mtime) source = n;
  }
  return source.mtime > built ? `${path.relative(root, source.file)} is newer than build/` : "";
}

export default function setup() {
  const why = staleBecause();
  if (!why) return;
  console.log(`[build] ${why}: npm run build`);
  // As `npm run build` runs from a shell (Remix then builds for production): vitest's NODE_ENV=test
  // would give a development build, which the production server cannot render with.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST")));
  execFileSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit", env: { ...env, NODE_ENV: "production" } });
}
