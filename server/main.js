// The production (and development) HTTP server: static files, security headers,
// cross-site write refusal, then Remix. Domain logic lives in the Remix build
// (server/*.ts bundled through app/entry.server.tsx), reached as build.entry.module.
import path from "node:path";
import fs from "node:fs";
import url from "node:url";
import express from "express";
import compression from "compression";
import { createRequestHandler } from "@remix-run/express";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const BUILD_PATH = path.join(root, "build", "index.js");
const isDev = process.env.NODE_ENV === "development";

async function loadBuild() {
  const href = url.pathToFileURL(BUILD_PATH).href;
  return import(isDev ? `${href}?t=${fs.statSync(BUILD_PATH).mtimeMs}` : href);
}

let build = await loadBuild();
const mod = () => build.entry.module;

try {
  await mod().boot();
} catch (error) {
  console.error(`[boot] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
const env = mod().env();

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", "loopback");
app.use(compression());

const appHost = new URL(env.APP_URL).host;
app.use((req, res, next) => {
  // Requests are always addressed to APP_URL: forwarded or spoofed hosts are never trusted.
  delete req.headers["x-forwarded-host"];
  req.headers.host = appHost;
  const nonce = mod().createNonce();
  res.locals.nonce = nonce;
  const headers = mod().securityHeaders(nonce, env, req.secure);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  const crossSite = mod().isCrossSiteWrite(req.method, req.path, {
    origin: req.get("origin") ?? null,
    secFetchSite: req.get("sec-fetch-site") ?? null,
  }, env.APP_URL);
  if (crossSite) {
    res.status(403).type("text/plain").send("Cross-site request refused");
    return;
  }
  next();
});

app.use("/build", express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y" }));
app.use("/fonts", express.static(path.join(root, "public/fonts"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(root, "public"), { maxAge: "1h", index: false }));

app.all(
  "*",
  isDev
    ? (req, res, next) =>
        createRequestHandler({ build, mode: "development", getLoadContext: (q, r) => ({ nonce: r.locals.nonce, clientIp: q.ip ?? "" }) })(req, res, next)
    : createRequestHandler({ build, mode: "production", getLoadContext: (q, r) => ({ nonce: r.locals.nonce, clientIp: q.ip ?? "" }) }),
);

const port = env.PORT;
const server = app.listen(port, () => {
  console.log(`[server] listening on http://localhost:${port} (public URL ${env.APP_URL})`);
  if (isDev) {
    import("@remix-run/node").then(({ broadcastDevReady }) => broadcastDevReady(build));
  }
});

if (isDev) {
  fs.watch(path.dirname(BUILD_PATH), { persistent: false }, async () => {
    try {
      build = await loadBuild();
      const { broadcastDevReady } = await import("@remix-run/node");
      broadcastDevReady(build);
    } catch (e) {
      console.error(e);
    }
  });
}

let shuttingDown = false;
function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`[server] ${signal}: finishing in-flight requests`);
  server.close(() => {
    Promise.resolve(mod().shutdown?.()).finally(() => process.exit(0));
  });
  server.closeIdleConnections?.();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
