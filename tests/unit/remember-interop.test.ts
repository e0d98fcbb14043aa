import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { productMap } from "../../scripts/product-map.mjs";
import { rememberInterop } from "../../scripts/server-bundle.mjs";

// Issue 42.4: esbuild's __toESM made a new namespace object at every import of a CommonJS module;
// the build makes one per module. The bundle must behave exactly as before.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "remember-interop-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);

write("late.cjs", `exports.early = 1; require("./cycle.cjs"); exports.late = 2;`);
write("cycle.cjs", `const late = require("./late.cjs"); exports.seenEarly = late.early; exports.seenLate = late.late;`);
write(
  "counter.cjs",
  `exports.count = 0; exports.bump = () => ++exports.count; module.exports.default = "own default";`,
);
write(
  "esm.cjs",
  `Object.defineProperty(exports, "__esModule", { value: true }); exports.default = "esm default"; exports.named = 3;`,
);
write(
  "a.mjs",
  `import fs from "node:fs"; import * as fsNamespace from "node:fs"; import * as counter from "./counter.cjs";
import esm from "./esm.cjs"; export const a = { fs, fsNamespace, counter, esm };`,
);
write(
  "b.mjs",
  `import fs from "node:fs"; import * as fsNamespace from "node:fs"; import * as counter from "./counter.cjs";
import { named } from "./esm.cjs"; import * as late from "./late.cjs"; export const b = { fs, fsNamespace, counter, named, late };`,
);
// Imported lazily, each module keeps its own imports (as the server's bundles do across their
// wrapped modules) instead of esbuild sharing one.
write("entry.mjs", `export const load = async () => ({ ...(await import("./a.mjs")), ...(await import("./b.mjs")) });`);

async function bundle(name: string, remember: boolean) {
  const outfile = path.join(dir, `${name}.cjs`);
  await build({
    entryPoints: [path.join(dir, "entry.mjs")],
    bundle: true,
    platform: "node",
    format: "cjs",
    minify: true,
    outfile,
    sourcemap: "external",
    logLevel: "error",
  });
  const shift = remember ? rememberInterop([outfile]) : null;
  return { exports: await createRequire(outfile)(outfile).load(), shift, outfile };
}

describe("esbuild's __toESM, remembered", () => {
  it("gives each module one namespace object, with the same exports as before", async () => {
    const before = (await bundle("plain", false)).exports;
    const { exports: after, shift } = await bundle("remembered", true);
    expect(shift?.delta).toBeGreaterThan(0);
    // Before: a new object per import. After: one per module and interop mode.
    expect(before.a.fsNamespace).not.toBe(before.b.fsNamespace);
    expect(before.a.counter).not.toBe(before.b.counter);
    expect(after.a.fsNamespace).toBe(after.b.fsNamespace);
    expect(after.a.counter).toBe(after.b.counter);
    for (const side of [before, after]) {
      expect(side.a.fs.readFileSync).toBe(fs.readFileSync);
      expect(side.b.fsNamespace.default.readFileSync).toBe(fs.readFileSync);
      expect(side.b.fsNamespace.readFileSync).toBe(fs.readFileSync);
      expect(side.a.counter.default.default).toBe("own default");
      expect(side.a.counter.bump()).toBe(1);
      expect(side.b.counter.count).toBe(1); // live: the getter reads the module's current value
      expect(side.a.esm.default).toBe("esm default"); // Node's rule for an .mjs importer
      expect(side.b.named).toBe(3);
      expect(side.b.late.late).toBe(2);
    }
  });

  it("stops the build when esbuild writes the helper otherwise", () => {
    write("no-helper.js", "var x = 1;");
    expect(() => rememberInterop([path.join(dir, "no-helper.js")])).toThrow(/found in 0 files/);
  });

  it("moves the map's columns after the change with it", async () => {
    const { shift, outfile } = await bundle("mapped", true);
    const map = JSON.parse(fs.readFileSync(`${outfile}.map`, "utf8"));
    map.sources = map.sources.map((s: string) => s.replace(/.*\//, "app/")); // as if ours
    fs.writeFileSync(`${outfile}.map`, JSON.stringify(map));
    const plain = path.join(dir, "unshifted.map");
    productMap(`${outfile}.map`, plain);
    productMap(`${outfile}.map`, `${outfile}.product.map`, shift);
    const line = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")).mappings.split(";")[shift!.line];
    expect(line(`${outfile}.product.map`)).not.toBe(line(plain));
  });
});
