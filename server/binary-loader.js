// The single binary's main script, the one Node's SEA runs (scripts/build-binary.mjs bundles it
// alone; see docs/decisions/012). It reads the server's bundle (server/binary.js, the Remix build
// and the server, one CommonJS script) and the code cache compiled for it from the binary's
// payload, and runs it as Node runs a CommonJS module (server/load-build.js). Read, not mapped: V8 keeps its own copy of
// the source, and a second copy in the executable's mapped pages would stay resident.
import fs from "node:fs";
import { APP, openPayload } from "./binary-payload.js";
import { compileScript, runScript } from "./load-build.js";

const payload = openPayload();
let source, cachedData;
try {
  source = payload.ascii(APP.name);
  cachedData = payload.bytes(APP.cache);
} finally {
  payload.close();
}
const app = compileScript(source, APP.filename, cachedData, { dynamicImport: false });
// The cache is compiled by the same Node with the same flags; should V8 still refuse it, the
// server starts all the same, only slower (build-binary checks that this is never printed).
if (app.cachedDataRejected) process.emitWarning("the bundle's code cache was rejected: starting without it");
// The build's second pass (scripts/build-binary.mjs): the binary is run once with this set, and
// writes the code cache as it stands when the process ends, with the functions that run compiled.
const cacheOut = process.env.STUDIO_CODE_CACHE_OUT;
if (cacheOut) process.once("exit", () => fs.writeFileSync(cacheOut, app.createCachedData()));
// The SEA's own require (built-in modules only) is the one the bundle was built for.
runScript(app, require, APP.filename);
