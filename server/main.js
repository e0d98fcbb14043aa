// `npm start` (and `npm run dev`): loads the Remix build from build/ and starts the compiled server
// (build/server.js, from server/index.ts) on it.
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { start } from "../build/server.js";

// `npm start` with no NODE_ENV runs the production build on this machine on the embedded
// defaults (see applyLocalDefaults); NODE_ENV=production is a deployment and requires its secrets.
const localRun = !process.env.NODE_ENV;
if (localRun) process.env.NODE_ENV = "production";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const BUILD_PATH = path.join(root, "build", "index.js");
const isDev = process.env.NODE_ENV === "development";

async function loadBuild() {
  const href = url.pathToFileURL(BUILD_PATH).href;
  return import(isDev ? `${href}?t=${fs.statSync(BUILD_PATH).mtimeMs}` : href);
}

let build = await loadBuild();

await start({
  getBuild: () => build,
  publicDir: path.join(root, "public"),
  localRun,
  isDev,
  onListening: () => {
    if (!isDev) return;
    import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
    fs.watch(path.dirname(BUILD_PATH), { persistent: false }, async () => {
      try {
        build = await loadBuild();
        const { broadcastDevReady } = await import("@remix-run/node");
        broadcastDevReady(build);
      } catch (e) {
        console.error(e);
      }
    });
  },
});
