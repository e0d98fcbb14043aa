// How the server's code is bundled, shared by `npm run build` (scripts/build.mjs: build/index.js,
// the server module `npm start` and the npm operator scripts load) and `npm run build:binary`
// (scripts/build-binary.mjs: the single binary's script, which bundles build/index.js again as
// CommonJS). See docs/decisions/035-the-server-bundle-carries-its-packages.md.
import fs from "node:fs";
import path from "node:path";
import url from "node:url";

/**
 * Packages in their production builds. The server always runs with NODE_ENV=production (`npm start`
 * and the binary set it when unset), but a package that picks its build by `process.env.NODE_ENV`
 * would otherwise bring both into the bundle (react-dom's development builds alone are 460 KB,
 * held in the heap as source). Only node_modules are rewritten: the app's own code reads NODE_ENV
 * at run time (no NODE_ENV means the local defaults).
 * @type {import("esbuild").Plugin}
 */
export const productionPackages = {
  name: "production-packages",
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, async ({ path: file }) => {
      const source = await fs.promises.readFile(file, "utf8");
      if (!source.includes("process.env.NODE_ENV")) return undefined;
      return { contents: source.replace(/\bprocess\.env\.NODE_ENV\b/g, '"production"'), loader: "js" };
    });
  },
};

/**
 * Parts of @remix-run/node the server never uses, left out of its bundles; should anything ever
 * use one, it fails saying so.
 * - The fetch polyfills: installGlobals() requires undici's whole index or Remix's own web-fetch
 *   (half a megabyte of source each, which V8 would hold all the same). The server never calls it:
 *   it installs undici's fetch classes from their own files itself (server/fetch-globals.ts,
 *   decision 048).
 * - Uploads to files and sessions in files (`unstable_createFileUploadHandler`, `NodeOnDiskFile`,
 *   `createFileSessionStorage`): the package's index loads them at every start, and with them
 *   node:fs/promises and Node's readline, some 3 ms of a cold start (issue 42.4). Uploads are read
 *   by server/http/uploads.server.ts, sessions live in the database.
 * @type {import("esbuild").Plugin}
 */
export const remixNodeLeftOut = {
  name: "remix-node-left-out",
  setup(esbuild) {
    const fetchPolyfill = {
      importer: /@remix-run[\\/]node[\\/]dist[\\/]globals\.js$/,
      why: "the server installs undici's fetch classes itself (server/fetch-globals.ts), installGlobals is not called",
    };
    /** @type {Record<string, { importer: RegExp, why: string }>} */
    const leftOut = {
      undici: fetchPolyfill,
      "@remix-run/web-fetch": fetchPolyfill,
      "./upload/fileUploadHandler.js": {
        importer: /@remix-run[\\/]node[\\/]dist[\\/]index\.js$/,
        why: "the server reads uploads itself (server/http/uploads.server.ts)",
      },
      "./sessions/fileStorage.js": {
        importer: /@remix-run[\\/]node[\\/]dist[\\/]index\.js$/,
        why: "sessions are kept in the database",
      },
    };
    const names = Object.keys(leftOut).map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
    esbuild.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, ({ path: name, importer }) =>
      leftOut[name]?.importer.test(importer) ? { path: name, namespace: "remix-node-left-out" } : undefined,
    );
    // Each export the index reads stays readable; using one throws.
    esbuild.onLoad({ filter: /.*/, namespace: "remix-node-left-out" }, ({ path: name }) => {
      const message = JSON.stringify(`${name} of @remix-run/node is not in the server bundle: ${leftOut[name].why}`);
      return {
        contents: `const fails = () => { throw new Error(${message}); };
module.exports = new Proxy({}, { get: (_, key) => (key === "__esModule" ? undefined : fails) });`,
        loader: "js",
      };
    });
  },
};

/**
 * Remix's route matching, remembered. `matchRoutes` of @remix-run/router flattens and ranks every
 * route, then compiles a regular expression for each branch it tries, at every call, and Remix
 * calls it several times a request: a tenth of the server's time under the multipart fuzz
 * (docs/performance.md). The route tree a server matches against is made once per build, so its
 * ranked branches are kept per tree (a WeakMap on the array), and a compiled pattern per path
 * (patterns come from the route definitions, not from requests; at most 1,000 kept). Only the
 * server's bundles are changed; the build stops if the router's code is not as expected (a new
 * version: look again).
 * @type {import("esbuild").Plugin}
 */
export const rememberedRouteMatching = {
  name: "remembered-route-matching",
  setup(esbuild) {
    esbuild.onLoad(
      { filter: /[\\/]@remix-run[\\/]router[\\/]dist[\\/]router\.(cjs\.)?js$/ },
      async ({ path: file }) => {
        const source = await fs.promises.readFile(file, "utf8");
        const ranked = "  let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);\n";
        const compile = "function compilePath(path, caseSensitive, end) {\n";
        if (!source.includes(ranked) || !source.includes(compile))
          throw new Error(
            `${file}: matchRoutes is not as remembered-route-matching expects; see scripts/server-bundle.mjs`,
          );
        const patched = source.replace(ranked, "  let branches = rankedBranchesOf(routes);\n").replace(
          compile,
          `const rememberedBranches = new WeakMap();
function rankedBranchesOf(routes) {
  let branches = rememberedBranches.get(routes);
  if (!branches) {
    branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    rememberedBranches.set(routes, branches);
  }
  return branches;
}
const rememberedPaths = new Map();
function compilePath(path, caseSensitive, end) {
  const key = path + "\\u0000" + caseSensitive + "\\u0000" + end;
  let compiled = rememberedPaths.get(key);
  if (!compiled) {
    if (rememberedPaths.size >= 1000) rememberedPaths.clear();
    compiled = compilePathOnce(path, caseSensitive, end);
    rememberedPaths.set(key, compiled);
  }
  return compiled;
}
function compilePathOnce(path, caseSensitive, end) {
`,
        );
        return { contents: patched, loader: "js" };
      },
    );
  },
};

/**
 * Packages bundled apart from the server, by the file each group goes to (build/apart/<group>.cjs):
 * read at their first use (server/packages-apart.ts). Only packages the server imports with
 * `import()`, and only those a studio may never use: express, compression and send serve the
 * browser's scripts, so every visitor loads them and they stay in the script.
 */
export const PACKAGES_APART = {
  documents: ["pdf-lib", "node-forge", "@signpdf/placeholder-pdf-lib", "@signpdf/signer-p12", "@signpdf/signpdf"],
  stripe: ["stripe"],
  smtp: ["nodemailer"],
  sendgrid: ["@sendgrid/client", "@sendgrid/mail"],
  caldav: ["tsdav"],
  acme: ["acme-client"],
};

/**
 * The packages of PACKAGES_APART kept out of the server's bundle: each `import()` of one becomes a
 * module whose exports are read from its group's file at run time (a CommonJS module, so that its
 * namespace carries the package's named exports and `default`, as Node's own `import()` of it
 * would). A static import of one would bundle it in all the same: the build stops instead.
 * @type {import("esbuild").Plugin}
 */
export const packagesApart = {
  name: "packages-apart",
  setup(esbuild) {
    /** @type {Map<string, string>} */
    const groupOf = new Map(Object.entries(PACKAGES_APART).flatMap(([group, names]) => names.map((n) => [n, group])));
    const names = new RegExp(`^(${[...groupOf.keys()].map((n) => n.replace(/[/.-]/g, "\\$&")).join("|")})$`);
    const loader = path.join(path.dirname(url.fileURLToPath(import.meta.url)), "..", "server", "packages-apart.ts");
    esbuild.onResolve({ filter: names }, ({ path: name, kind, importer }) => {
      if (kind !== "dynamic-import")
        return {
          errors: [
            {
              text: `${name} is imported statically by ${importer}: it is read apart (PACKAGES_APART), load it with import()`,
            },
          ],
        };
      return { path: name, namespace: "packages-apart" };
    });
    esbuild.onLoad({ filter: /.*/, namespace: "packages-apart" }, ({ path: name }) => ({
      contents: `module.exports = require(${JSON.stringify(loader)}).packageApart(${JSON.stringify(groupOf.get(name))}, ${JSON.stringify(name)});`,
      loader: "js",
      resolveDir: path.dirname(loader),
    }));
  },
};

/**
 * What both bundles share: Node, bundled, minified (V8 keeps a script's whole source in the heap for
 * as long as the process runs, and parses all of it at the start). Functions and classes are not
 * given back their names (`keepNames`): that is a defineProperty on each of some 4,300 functions at
 * every start and on every inner function at every call, 15 ms of a start (issue 42.4); no package
 * in the server's bundle reads a function's name, the log writes `error.name`, and a logged stack
 * is mapped to its sources by position. The packages read apart keep theirs (PACKAGES_APART_OPTIONS:
 * Stripe's and pdf-lib's errors are named after their classes).
 * @satisfies {import("esbuild").BuildOptions}
 */
export const serverBundleOptions = {
  bundle: true,
  platform: "node",
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  legalComments: "none",
  logLevel: "error",
  metafile: true,
  plugins: [rememberedRouteMatching, productionPackages, remixNodeLeftOut],
};

/** The packages read apart (PACKAGES_APART): as the server's bundle, with their functions' names. */
export const PACKAGES_APART_OPTIONS = { ...serverBundleOptions, keepNames: true };

/**
 * esbuild's `__toESM`, remembered per module (issue 42.4). Every module that imports a CommonJS
 * package (React, Remix's packages) or, in a CommonJS bundle, a built-in module by default
 * (`import fs from "node:fs"`) calls it with those exports and gets a new object holding a getter
 * for each: at every start some 300 calls in the ES build (React's exports copied 136 times) and
 * 107 in the script (node:crypto's 39 times), tens of thousands of defineProperty calls. The same
 * exports now give the same object, made once (a later call adds the exports a module set after
 * the first, as a cyclic import can leave them): what an ES module's namespace is anyway, one per
 * module. The build stops if esbuild writes the helper otherwise (a new version: look again).
 * Answers where the text changed, for the bundle's map (scripts/product-map.mjs).
 * @param {string[]} files the bundle's output files: exactly one defines the helper
 * @returns {{ file: string, line: number, column: number, delta: number }}
 */
export function rememberInterop(files) {
  const toEsm =
    /var ([\w$]+)=(\(([\w$]+),([\w$]+),([\w$]+)\)=>\(\5=\3!=null\?[\w$]+\([\w$]+\(\3\)\):\{\},([\w$]+)\(\4\|\|!\3\|\|!\3\.__esModule\?[\w$]+\(\5,"default",\{value:\3,enumerable:!0\}\):\5,\3\)\))/g;
  const found = files.filter((file) => fs.readFileSync(file, "utf8").match(toEsm)?.length);
  if (found.length !== 1)
    throw new Error(
      `rememberInterop: esbuild's __toESM found in ${found.length} files, not one; see scripts/server-bundle.mjs`,
    );
  const [file] = found;
  const text = fs.readFileSync(file, "utf8");
  const matches = [...text.matchAll(toEsm)];
  if (matches.length !== 1) throw new Error(`rememberInterop: ${file} defines __toESM ${matches.length} times`);
  const [whole, name, helper, , , , copyProps] = matches[0];
  const remembered = `var ${name}=((once,made)=>(m,node)=>{if(m==null||typeof m!="object"&&typeof m!="function")return once(m,node);const k=node||!m.__esModule?1:0;let e=made.get(m);if(!e)made.set(m,e=[]);return e[k]?${copyProps}(e[k],m):e[k]=once(m,node)})(${helper},new WeakMap)`;
  const at = /** @type {number} */ (matches[0].index);
  fs.writeFileSync(file, text.slice(0, at) + remembered + text.slice(at + whole.length));
  const before = text.slice(0, at).split("\n");
  return { file, line: before.length - 1, column: before.at(-1)?.length ?? 0, delta: remembered.length - whole.length };
}
