import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Issue 41.4: files a person can read. No source file of app/ or server/ runs over 400 lines.
const MAX_LINES = 400;
const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(p);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [p] : [];
  });
}

describe("files a person can read", () => {
  it(`no source file in app/ or server/ is over ${MAX_LINES} lines`, () => {
    const long = ["app", "server"]
      .flatMap((dir) => sources(path.join(root, dir)))
      .map((file) => ({ file: path.relative(root, file), lines: fs.readFileSync(file, "utf8").split("\n").length }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
