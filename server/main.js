// `npm start` (and `npm run dev`): starts the HTTP server of the one server module that
// `npm run build` writes (from server/bundle.ts; loaded by server/load-build.js), on the Remix app
// it carries.
import path from "node:path";
import url from "node:url";
import { loadServer } from "./load-build.js";

// `npm start` with no NODE_ENV runs the production build on this machine on the embedded
// defaults (see applyLocalDefaults); NODE_ENV=production is a deployment and requires its secrets.
const localRun = !process.env.NODE_ENV;
if (localRun) process.env.NODE_ENV = "production";
const isDev = process.env.NODE_ENV === "development";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
// Development: Node's own source maps (remix dev writes no reduced map). Production: the stacks the
// log writes name app/ and server/ sources and lines through the build's product map, read at
// the first error and let go a minute later (scripts/build.mjs; Node's own would keep the whole
// map parsed, some 25 MB, from the first stack it formats).
if (isDev) process.setSourceMapsEnabled(true);
// build/server.cjs from its code cache (build/index.js under `npm run dev`); its source,
// server/bundle.ts, for the type checker (the build's own JavaScript is not ours to check).
const { server, bundle, map } = await loadServer(root);
const { build, start, dataDirFromEnv, otherOwnerRefusal, mapStacksThrough } = server;
if (!isDev) mapStacksThrough(map, bundle);

// Files private to the studio's user and group (data 0640, folders 0750; backups 0600).
process.umask(0o027);
// Run as the data folder's owner, or not at all: nothing is created before this (issue 33.5).
const refusal = otherOwnerRefusal(dataDirFromEnv(), "npm start");
if (refusal) {
  console.error(refusal);
  process.exit(1);
}

await start({
  build,
  publicDir: path.join(root, "public"),
  localRun,
  isDev,
  // Development: `remix dev` restarts this process on each rebuild (node --watch-path), and the
  // new process tells it that it serves the new build.
  onListening: isDev
    ? () => import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build))
    : undefined,
});
