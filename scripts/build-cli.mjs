// `npm run build` (after `remix build`): compiles the operator commands (server/cli-main.ts) into
// build/cli.js, one ES module that imports its packages from node_modules, so `npm run db:migrate`,
// `db:seed`, `admin`, `backup` and `restore` run plain node, with no TypeScript runner at run time.
import path from "node:path";
import url from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");

/** Packages stay imports (node_modules is there); `~/` is the app's own folder (tsconfig paths). */
const packagesExternal = {
  name: "packages-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("~/") ? undefined : { path: args.path, external: true }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints: ["server/cli-main.ts"],
  outfile: "build/cli.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [packagesExternal],
  sourcemap: true,
  logLevel: "warning",
});
