// How the server's code is bundled, shared by `npm run build` (scripts/build.mjs: build/index.js,
// the server module `npm start` and the npm operator scripts load) and `npm run build:binary`
// (scripts/build-binary.mjs: the single binary's script, which bundles build/index.js again as
// CommonJS). See docs/decisions/035-the-server-bundle-carries-its-packages.md.
import fs from "node:fs";

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
 * Fetch polyfills left out. @remix-run/node's installGlobals() requires undici or Remix's own
 * web-fetch (half a megabyte of source, which V8 would hold all the same), but the server runs on
 * Node's own fetch and never calls it; should anything ever do, it fails saying so.
 * @type {import("esbuild").Plugin}
 */
export const noFetchPolyfills = {
  name: "no-fetch-polyfills",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^(undici|@remix-run\/web-fetch)$/ }, ({ path: name, importer }) =>
      /@remix-run[\\/]node[\\/]dist[\\/]globals\.js$/.test(importer)
        ? { path: name, namespace: "left-out" }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: "left-out" }, ({ path: name }) => ({
      contents: `throw new Error(${JSON.stringify(`${name} is not in the server bundle: the server uses Node's own fetch (installGlobals is not called)`)});`,
      loader: "js",
    }));
  },
};

/**
 * What both bundles share: Node, bundled, minified (V8 keeps a script's whole source in the heap for
 * as long as the process runs, and parses all of it at the start), functions and classes keeping
 * their own names (error names, stack traces, constructor.name).
 * @satisfies {import("esbuild").BuildOptions}
 */
export const serverBundleOptions = {
  bundle: true,
  platform: "node",
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  keepNames: true,
  legalComments: "none",
  logLevel: "error",
  metafile: true,
  plugins: [productionPackages, noFetchPolyfills],
};
