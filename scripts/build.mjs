// `npm run build`: Remix's production build with source maps for the SERVER only (decision 027).
// Remix's classic compiler has one switch for both builds (`--sourcemap`); the browser's maps
// would publish the app's sources under /build, so they are removed here with the comments that
// name them. build/index.js.map stays beside the server bundle (scripts/build-binary.mjs composes
// the binary's map from it), and build/index.product.js.map is that map reduced to the product's
// own code, which the log maps the stacks it writes through under `npm start` (server/main.js):
// Node's own source maps (--enable-source-maps) parse the whole map at the first stack they
// format, some 25 MB more RSS for as long as the server runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import url from "node:url";
import { build } from "esbuild";
import { PACKAGES_DIR, SERVER_CACHE, SERVER_PRODUCT_MAP, SERVER_SCRIPT } from "../server/load-build.js";
import { productMap } from "./product-map.mjs";
import {
  PACKAGES_APART,
  PACKAGES_APART_OPTIONS,
  packagesApart,
  rememberInterop,
  serverBundleOptions,
} from "./server-bundle.mjs";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const remix = path.join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js");
const result = spawnSync(process.execPath, [remix, "build", "--sourcemap"], {
  cwd: root,
  encoding: "utf8",
  stdio: ["ignore", "inherit", "pipe"],
});
// Remix warns that `--sourcemap` publishes the server's code: not so once the browser maps are gone.
process.stderr.write(result.stderr.replace(/^.*source maps enabled in production[\s\S]*?^┗\n/mu, ""));
if (result.status !== 0) process.exit(result.status ?? 1);

const client = path.join(root, "public", "build");
let removed = 0;
for (const entry of fs.readdirSync(client, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  if (file.endsWith(".map")) {
    fs.rmSync(file);
    removed++;
  } else if (/\.(js|css)$/.test(file)) {
    const text = fs.readFileSync(file, "utf8");
    const stripped = text.replace(/\n?(\/\/# sourceMappingURL=\S+|\/\*# sourceMappingURL=\S+ \*\/)\s*$/, "\n");
    if (stripped !== text) fs.writeFileSync(file, stripped);
  }
}
if (!fs.existsSync(path.join(root, "build", "index.js.map"))) throw new Error("build/index.js.map was not written");
// The server's packages that package.json's "browser" field maps to nothing (it loads them with
// `import()` when used, and the browser build would otherwise publish them): the browser build
// still writes an empty chunk for each, which no script names.
const scripts = fs.readdirSync(client, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
const texts = new Map(scripts.map((e) => [path.join(e.parentPath ?? e.path, e.name), ""]));
for (const file of texts.keys()) texts.set(file, fs.readFileSync(file, "utf8"));
for (const [file, text] of texts) {
  if (!file.endsWith(".js") || text.trim() !== "") continue;
  const name = path.basename(file);
  if ([...texts.values()].some((t) => t.includes(name))) continue;
  fs.rmSync(file);
  removed++;
}

// The server module with its packages in it (decision 035): Remix's build imports each package at
// run time, and Node resolving, reading and linking some 1,500 files took most of a start (about a
// second of the 1.5 s before /healthz answered). esbuild bundles Remix's output again, with every
// package but better-sqlite3 (a native addon) and minified, following Remix's map so that
// build/index.js.map still leads to app/ and server/. CommonJS packages inside an ES module call
// `require` for Node's built-ins: the banner gives them one.
const remixOut = path.join(root, "build", "remix");
fs.rmSync(remixOut, { recursive: true, force: true });
fs.rmSync(path.join(root, "build", "chunks"), { recursive: true, force: true });
for (const name of [SERVER_SCRIPT, `${SERVER_SCRIPT}.map`, SERVER_CACHE, SERVER_PRODUCT_MAP, PACKAGES_DIR])
  fs.rmSync(path.join(root, "build", name), { recursive: true, force: true });
fs.mkdirSync(remixOut);
for (const name of ["index.js", "index.js.map"])
  fs.renameSync(path.join(root, "build", name), path.join(remixOut, name));
const bundled = await build({
  ...serverBundleOptions,
  absWorkingDir: root,
  entryPoints: { index: path.join(remixOut, "index.js") },
  // Stripe, nodemailer, SendGrid, tsdav and the PDF packages: build/apart/ below, read at first use.
  plugins: [packagesApart, ...serverBundleOptions.plugins],
  outdir: path.join(root, "build"),
  // What the server loads only when used (Stripe, SendGrid, nodemailer: `import()` by name) goes to
  // build/chunks/, read at its first use instead of parsed at every start.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  target: "node20",
  external: ["better-sqlite3"],
  banner: {
    js: 'import { createRequire as __studioCreateRequire } from "node:module"; const require = __studioCreateRequire(import.meta.url);',
  },
  sourcemap: "linked",
  sourcesContent: false,
});
fs.rmSync(remixOut, { recursive: true });
// STUDIO_BUNDLE_META=FILE: esbuild's metafile of the bundle (what each package weighs in it).
if (process.env.STUDIO_BUNDLE_META) fs.writeFileSync(process.env.STUDIO_BUNDLE_META, JSON.stringify(bundled.metafile));
const runtimeImports = Object.values(bundled.metafile.outputs)
  .flatMap((o) => o.imports)
  .filter((i) => i.external && !i.path.startsWith("node:") && !builtinModules.includes(i.path))
  .map((i) => i.path);
if (runtimeImports.some((p) => p !== "better-sqlite3"))
  throw new Error(`build/index.js imports packages at run time: ${[...new Set(runtimeImports)].join(", ")}`);
productMap(path.join(root, "build", "index.js.map"), path.join(root, "build", "index.product.js.map"));
// One namespace object per CommonJS package, not one per importing module (issue 42.4).
rememberInterop(
  Object.keys(bundled.metafile.outputs)
    .filter((f) => f.endsWith(".js"))
    .map((f) => path.join(root, f)),
);

// The packages read apart (server/packages-apart.ts), one CommonJS file per group: loaded at their
// first use, never part of the server's script.
const apart = path.join(root, "build", PACKAGES_DIR);
for (const [group, names] of Object.entries(PACKAGES_APART)) {
  await build({
    ...PACKAGES_APART_OPTIONS,
    absWorkingDir: root,
    stdin: {
      contents: `module.exports = {${names.map((n) => `${JSON.stringify(n)}: require(${JSON.stringify(n)})`).join(", ")}};`,
      resolveDir: root,
      sourcefile: `${group}-packages.js`,
      loader: "js",
    },
    outfile: path.join(apart, `${group}.cjs`),
    format: "cjs",
    target: "node20",
  });
}

// The same module again as one CommonJS script, with V8's code cache for it (decision 037): what
// `npm start` and the operator scripts load (server/load-build.js). V8 keeps a compiled ES module
// from nothing but the source, so every start parsed build/index.js again; a script compiles from
// a cache. What build/chunks/ held is in it, run only when first used as before (esbuild wraps
// each module in a function), and with the cache never parsed at a start either.
const script = path.join(root, "build", SERVER_SCRIPT);
const scriptBuild = await build({
  ...serverBundleOptions,
  absWorkingDir: root,
  entryPoints: [path.join(root, "build", "index.js")],
  outfile: script,
  format: "cjs",
  target: "node20",
  external: ["better-sqlite3"],
  // import.meta has no meaning in a CommonJS script: its url is the script's own.
  define: { "import.meta.url": "__studioImportMetaUrl" },
  banner: { js: 'var __studioImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  // Through build/index.js.map to app/ and server/; no comment in the script (vm compiles it, and
  // the log maps the stacks it writes through the product's part of this map).
  sourcemap: "external",
  sourcesContent: false,
});
const scriptImports = Object.values(scriptBuild.metafile.outputs)
  .flatMap((o) => o.imports)
  .filter((i) => i.external && !i.path.startsWith("node:") && !builtinModules.includes(i.path));
if (scriptImports.some((i) => i.path !== "better-sqlite3"))
  throw new Error(`build/${SERVER_SCRIPT} imports more than better-sqlite3 at run time`);
productMap(`${script}.map`, path.join(root, "build", SERVER_PRODUCT_MAP), rememberInterop([script]));
// The cache: compiled by this Node with the flags `npm start` runs with (V8 refuses a cache made
// with other flags), after running the script's top level, so that the functions a start runs are
// in it compiled.
const nodeFlags = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).config.nodeFlags.split(" ");
const cached = spawnSync(
  process.execPath,
  [
    ...nodeFlags.filter(Boolean),
    "--input-type=module",
    "-e",
    `import fs from "node:fs";
     import { compileServer, runServer } from ${JSON.stringify(url.pathToFileURL(path.join(root, "server", "load-build.js")).href)};
     const script = compileServer(${JSON.stringify(script)});
     runServer(script, ${JSON.stringify(script)});
     fs.writeFileSync(${JSON.stringify(path.join(root, "build", SERVER_CACHE))}, script.createCachedData());
     process.exit(0);`,
  ],
  {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, NODE_ENV: "production" },
  },
);
if (cached.status !== 0) throw new Error(`the code cache of build/${SERVER_SCRIPT} was not made:\n${cached.stderr}`);

// build/fresh.db: the schema an empty data folder starts with, written once here and copied by a
// first start (server/db/db.server.ts, decision 047), with the SQLite the server loads.
const fresh = spawnSync(
  process.execPath,
  [
    "--input-type=module",
    "-e",
    `const { FRESH_DATABASE, writeFreshDatabase } = await import(${JSON.stringify(url.pathToFileURL(path.join(root, "build", "index.js")).href)});
     writeFreshDatabase(${JSON.stringify(path.join(root, "build"))} + "/" + FRESH_DATABASE);
     process.exit(0);`,
  ],
  {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, NODE_ENV: "production" },
  },
);
if (fresh.status !== 0) throw new Error(`build/fresh.db was not written:\n${fresh.stderr}`);
console.log(
  `server source map: build/index.js.map (product code: build/index.product.js.map); ${removed} browser source maps and empty chunks removed from public/build`,
);
