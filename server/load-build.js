// How `npm start` and the npm operator scripts load the server module (decision 037). `npm run
// build` writes it twice: build/index.js (an ES module, #build in package.json's imports: what
// `npm run dev`, the single binary's build and the perf reference import) and build/server.cjs,
// the same module graph as one CommonJS script, with the V8 code cache compiled for it at build
// time (build/server.cjs.cache, by this Node with package.json's config.nodeFlags, after running
// the script's top level). A start compiles the script from the cache instead of parsing some
// 2 MB of JavaScript again, as the binary does (server/binary-loader.js): about a quarter of the
// time to /healthz. V8 refuses a cache made by another Node or with other flags; the script is
// then parsed as it would be without one.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

/** The CommonJS server module and its code cache, in build/. */
export const SERVER_SCRIPT = "server.cjs";
export const SERVER_CACHE = "server.cjs.cache";
/** Its map reduced to app/, server/ and migrations/ (scripts/product-map.mjs), for logged stacks. */
export const SERVER_PRODUCT_MAP = "server.product.cjs.map";
/** The packages read apart at their first use, a file per group (server/packages-apart.ts). */
export const PACKAGES_DIR = "apart";

/**
 * `source` compiled as Node compiles a CommonJS module: wrapped in a function of Node's own
 * parameters, opened on the first line, so every line keeps its number. `dynamicImport`: an
 * `import()` in it goes to Node's own loader (the single binary's has none to give).
 * @param {string} source
 * @param {string} filename
 * @param {Buffer} [cachedData]
 * @param {{ dynamicImport?: boolean }} [options]
 */
export function compileScript(source, filename, cachedData, { dynamicImport = true } = {}) {
  return new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename,
    cachedData,
    ...(dynamicImport ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
  });
}

/**
 * Runs a compiled script's top level with `require` as its require: its exports.
 * @param {vm.Script} script
 * @param {NodeJS.Require} require
 * @param {string} filename
 * @returns {typeof import("#build")}
 */
export function runScript(script, require, filename) {
  const module = { exports: {} };
  const init = /** @type {(...args: unknown[]) => void} */ (script.runInThisContext());
  init.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
  return /** @type {typeof import("#build")} */ (module.exports);
}

/**
 * build/server.cjs compiled (from `cachedData` when given).
 * @param {string} file
 * @param {Buffer} [cachedData]
 */
export const compileServer = (file, cachedData) => compileScript(fs.readFileSync(file, "utf8"), file, cachedData);

/**
 * Runs build/server.cjs compiled: its exports (its packages' require is the file's own).
 * @param {vm.Script} script
 * @param {string} file
 */
export const runServer = (script, file) => runScript(script, createRequire(file), file);

/**
 * The server module: build/server.cjs from its code cache, or #build (build/index.js) under
 * `npm run dev` (remix dev writes that alone) or where there is no such script. `bundle` and
 * `map`: the file a logged stack's frames name and the product's map to read them through.
 * @param {string} root the repository
 * @returns {Promise<{ server: typeof import("#build"), bundle: string, map: string }>}
 */
export async function loadServer(root) {
  const file = path.join(root, "build", SERVER_SCRIPT);
  if (process.env.NODE_ENV === "development" || !fs.existsSync(file))
    return {
      server: await import("#build"),
      bundle: path.join(root, "build", "index.js"),
      map: path.join(root, "build", "index.product.js.map"),
    };
  /** @type {Buffer | undefined} */
  let cachedData;
  try {
    cachedData = fs.readFileSync(path.join(root, "build", SERVER_CACHE));
  } catch {
    cachedData = undefined;
  }
  const server = runServer(compileServer(file, cachedData), file);
  return { server, bundle: file, map: path.join(root, "build", SERVER_PRODUCT_MAP) };
}
