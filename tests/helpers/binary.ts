/**
 * The single binary for the tests that run it (tests/binary/): `scripts/build-binary.mjs` builds
 * dist/studio, or keeps it when it already holds the current build. Two test files may ask at
 * once (two workers): a lock folder lets one build while the other waits for it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
export const supported = process.platform === "linux" && process.arch === "x64";

export async function ensureBinary(): Promise<string> {
  const lock = path.join(root, "dist", ".building");
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Another worker builds: wait, unless its lock is older than a cold build takes.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 600_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (!fs.existsSync(path.join(root, "build", "index.js")))
      execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    // Downloads Node and compiles the addon on a cold cache (a couple of minutes); seconds otherwise.
    execFileSync(process.execPath, ["scripts/build-binary.mjs"], { cwd: root, stdio: "inherit" });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  return path.join(root, "dist", "studio");
}
