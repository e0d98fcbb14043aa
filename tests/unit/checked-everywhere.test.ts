/**
 * Issue 41.7, "checked everywhere": every JavaScript and TypeScript file of the repository is
 * type-checked by `npm run typecheck` (tsconfig.json, with checkJs) and linted by `npm run lint`,
 * scripts/, server/*.js and the root's config files included. A new file where neither reaches
 * fails here, named; and a type error in a script (a .mjs file) is an error, not a pass.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** Generated, installed or local-only folders: not sources. */
const NOT_SOURCES = new Set([
  ".git",
  ".cache",
  "node_modules",
  "build",
  "public/build",
  "dist",
  "data",
  "tmp",
  "test-results",
  "playwright-report",
]);
/**
 * Linted but not type-checked (yet): the benchmark tools, which `npm run bench` and
 * `npm run lighthouse` run and no test imports.
 */
const NOT_TYPE_CHECKED = ["tests/perf/"];

/** Every .js, .mjs, .cjs, .ts and .tsx file outside NOT_SOURCES, relative to the root. */
function sources(dir = ""): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCES.has(rel) ? [] : sources(rel);
    return entry.isFile() && /\.(c|m)?[jt]sx?$/.test(entry.name) ? [rel] : [];
  });
}

function tsconfig() {
  const file = path.join(root, "tsconfig.json");
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, file);
}

describe("checked everywhere (issue 41.7)", () => {
  const all = sources();

  it("finds the files the issue names", () => {
    for (const f of [
      "scripts/build-binary.mjs",
      "scripts/test.mjs",
      "server/main.js",
      "server/binary.js",
      "eslint.config.js",
    ])
      expect(all).toContain(f);
  });

  it("type-checks every source file, JavaScript too", () => {
    const parsed = tsconfig();
    expect(parsed.errors).toEqual([]);
    expect(parsed.options.allowJs).toBe(true);
    expect(parsed.options.checkJs).toBe(true);
    const included = new Set(parsed.fileNames.map((f) => path.relative(root, f).split(path.sep).join("/")));
    const missing = all.filter((f) => !included.has(f) && !NOT_TYPE_CHECKED.some((d) => f.startsWith(d)));
    expect(missing).toEqual([]);
  });

  it("reports a type error in a script", () => {
    // tsconfig's options as they are, but no ambient @types (the probe needs none; Node's alone take
    // seconds to parse).
    const options = { ...tsconfig().options, types: [] };
    const probe = path.join(root, "scripts", "type-error-probe.mjs");
    const text = `/** @param {number} ms */\nconst seconds = (ms) => (ms / 1000).toFixed(1);\nseconds("12");\nexport {};\n`;
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, language, ...rest) =>
      path.resolve(name) === probe ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => path.resolve(name) === probe || fileExists(name);
    const program = ts.createProgram({ rootNames: [probe], options, host });
    const errors = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(probe))
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(errors).toEqual([`TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.`]);
  });

  it("lints every source file: npm run lint names its folder or matches it at the root", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const eslint = /(?:^|&&\s*)eslint\s+([^&]*)/.exec(pkg.scripts.lint)?.[1] ?? "";
    const targets = eslint.split(/\s+/).filter((a) => a && !a.startsWith("-"));
    const covered = (file: string) =>
      targets.some((t) =>
        t.startsWith("*.") ? !file.includes("/") && file.endsWith(t.slice(1)) : file === t || file.startsWith(`${t}/`),
      );
    expect(all.filter((f) => !covered(f))).toEqual([]);
  });
});
