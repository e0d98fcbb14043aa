// `npm run build` (after `remix build`): compiles the server's own TypeScript entries, each one ES
// module that imports its packages from node_modules, so nothing needs a TypeScript runner at run
// time:
// - server/index.ts -> build/server.js: the HTTP server, `start({ build })` (server/main.js);
// - server/cli-main.ts -> build/cli.js: the operator commands (`npm run db:migrate`, `db:seed`,
//   `admin`, `backup`, `restore`).
// The single binary bundles the same sources (scripts/build-binary.mjs).
import path from "node:path";
import url from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");

/** Packages stay imports (node_modules is there); `~/` is the app's own folder (tsconfig paths). */
const packagesExternal = {
  name: "packages-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("~/") ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { server: "server/index.ts", cli: "server/cli-main.ts" },
  outdir: "build",
  bundle: true,
  splitting: false,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [packagesExternal],
  sourcemap: true,
  logLevel: "warning",
});
