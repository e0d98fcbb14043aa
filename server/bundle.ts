// The one server module (decision 022): Remix's compiler builds this file, the HTTP server, the
// operator commands and the Remix app into build/index.js as one module graph (remix.config.js's
// `server` option), so the database, the env, the auth kit and the request scope each exist once
// per process. `npm start` (server/main.js), the npm operator scripts (server/cli-main.js) and the
// single binary (server/binary.js) all load this module and nothing else of the server.
// First: the fetch classes every module after it sees (decision 048).
import "./fetch-globals";
import * as build from "@remix-run/dev/server-build";
import type * as Install from "./install";

export { build };
export { start, type StartOptions } from "./index";
export { runCli } from "./cli";
/** `studio install` (server/install.ts), loaded when it runs: a server never needs it. */
export async function runInstall(...args: Parameters<typeof Install.runInstall>): Promise<number> {
  return (await import("./install")).runInstall(...args);
}
export { dataDirFromEnv } from "./env.server";
export { otherOwnerRefusal, shellQuote } from "./data-owner.server";
export { FRESH_DATABASE, sqliteNativeBinding, writeFreshDatabase } from "./db/db.server";
export { mapStacksThrough } from "./log.server";
export { KNOWN_MIGRATIONS, PRODUCT_VERSION } from "./db/backup.server";
// The bench's bare-React reference (tests/perf/bare-react.mjs) renders the same tree with the
// bundle's own React and Remix: a second copy from node_modules would not share their contexts.
export { renderToString } from "react-dom/server";
export { createRequestHandler } from "@remix-run/node";
export { provideRuntimeFiles } from "./runtime-files";
