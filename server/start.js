// The HTTP server: static files, security headers, cross-site write refusal, the page cache, then
// Remix. `start()` takes the Remix build (loaded from disk by server/main.js, or embedded in the
// single binary); domain functions are still reached through `build.entry.module` (issue 17.4
// moves them into a compiled server module).
import http from "node:http";
import path from "node:path";
import express from "express";
import compression from "compression";
import { createRequestHandler as createFetchHandler } from "@remix-run/node";
import { acceptsGzip, createRemixHandler } from "./remix-handler.js";

/**
 * Boots the domain (migrations, seed, timers) and serves HTTP on the env's PORT; SIGTERM and
 * SIGINT shut it down gracefully. Resolves with the http.Server once it listens.
 * - `build`, or `getBuild()` when development reloads it: the Remix server build;
 * - `publicDir`: public/ (fonts, the browser build under build/, the favicon);
 * - `localRun`: NODE_ENV was not set, so the local defaults apply (APP_URL on localhost, a secret
 *   generated into DATA_DIR);
 * - `onListening(server)`: development's hook (broadcastDevReady).
 */
export async function start({ build, getBuild, publicDir, localRun = false, isDev = false, onListening }) {
  const current = getBuild ?? (() => build);
  const mod = () => current().entry.module;

  try {
    if (localRun) {
      const local = mod().useLocalDefaults();
      console.log(`[server] NODE_ENV not set: running locally at ${local.APP_URL} with the session secret in ${local.secretFile}. To deploy, set NODE_ENV=production, APP_URL and SESSION_SECRET.`);
    }
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
      // Refused before its body is read: the connection closes so no unread body is left on it.
      res.status(403).set("Connection", "close").type("text/plain").send("Cross-site request refused");
      return;
    }
    // A form post whose body is not a form: 415 before anything reads it.
    const refusal = mod().formEncodingRefusal(req.method, req.url, req.get("content-type"));
    if (refusal) {
      refuse(res, refusal);
      return;
    }
    const search = req.url.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
    // The route's body limit: refused at once when Content-Length says more, and counted while a
    // body of any framing (chunked included) streams into Remix (server/remix-handler.js).
    res.locals.bodyLimit = mod().bodyLimitFor(req.method, req.path, search);
    if (mod().isBodyTooLarge(req.method, req.path, search, req.get("content-length"))) {
      res.status(413).set("Connection", "close").type("text/plain").send("Request body too large");
      req.resume();
      return;
    }
    next();
  });

  app.use("/build", express.static(path.join(publicDir, "build"), { immutable: true, maxAge: "1y" }));
  app.use("/fonts", express.static(path.join(publicDir, "fonts"), { immutable: true, maxAge: "1y" }));
  // Other files in public/ (the favicon): only paths that name a file are looked up on disk, so
  // page requests skip the stat and the error it makes for a directory.
  const publicFiles = express.static(publicDir, { maxAge: "1h", index: false, redirect: false });
  app.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));

  const getLoadContext = (q, r) => ({ nonce: r.locals.nonce, clientIp: q.ip ?? "" });
  const bodyLimit = (q, r) => r.locals.bodyLimit ?? 0;
  app.all(
    "*",
    isDev
      ? (req, res, next) => createRemixHandler(current(), "development", getLoadContext, bodyLimit)(req, res, next)
      : createRemixHandler(current(), "production", getLoadContext, bodyLimit),
  );

  // Anonymous public pages are served from memory (server/http/page-cache.server.ts): rendered
  // once through Remix, gzipped once, each hit with a fresh CSP nonce.
  const renderPage = isDev ? null : createFetchHandler(current(), "production");

  async function renderForCache(key) {
    const version = mod().catalogueVersion();
    const nonce = mod().createNonce();
    const request = new Request(env.APP_URL + key, { headers: { accept: "text/html", "user-agent": "studio-page-cache-bot" } });
    const response = await renderPage(request, { nonce, clientIp: "" });
    const body = Buffer.from(await response.arrayBuffer());
    return mod().storePage(key, response.status, response.headers, body, version);
  }

  /**
   * Express's `req.secure` for a request that bypasses express: TLS, or `X-Forwarded-Proto: https`
   * from a proxy the app's "trust proxy" setting trusts.
   */
  const trustProxy = app.get("trust proxy fn");
  function isSecure(req) {
    if (req.socket.encrypted) return true;
    if (!trustProxy(req.socket.remoteAddress ?? "", 0)) return false;
    return String(req.headers["x-forwarded-proto"] ?? "").split(",")[0].trim() === "https";
  }

  function sendCached(req, res, page) {
    const gzip = acceptsGzip(req);
    res.writeHead(page.status, mod().cachedPageHead(page, mod().createNonce(), env, isSecure(req), gzip));
    res.end(gzip ? page.gzip : page.body);
  }

  /** Answers a refusal before anything reads the request; the connection closes (its body is never read). */
  function refuse(res, refusal) {
    res.writeHead(refusal.status, { ...refusal.headers, "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
    res.end(refusal.message);
  }

  async function handle(req, res) {
    // Every request passes here first: a method or request target no route answers is a 4xx.
    const lineRefusal = mod().requestLineRefusal(req.method, req.url);
    if (lineRefusal) return refuse(res, lineRefusal);
    const key = renderPage ? mod().cacheKeyFor(req.method, req.url, Boolean(req.headers.cookie)) : null;
    if (!key) return app(req, res);
    try {
      // Concurrent misses of one page share one render.
      const page = mod().getCachedPage(key) ?? (await mod().renderOnce(key, renderForCache));
      if (!page) return app(req, res);
      sendCached(req, res, page);
    } catch (error) {
      console.error("[page-cache]", error);
      app(req, res);
    }
  }

  let shuttingDown = false;
  const port = env.PORT;
  const server = http.createServer(handle);
  // A body still arriving after 60 s must average 64 KB/s (408 otherwise, in server/remix-handler.js);
  // Node's own limit on a whole request is only the backstop for a 100 MB upload on a slow line.
  server.requestTimeout = 30 * 60_000;
  server.headersTimeout = 60_000;
  await new Promise((resolve) => server.listen(port, resolve));
  console.log(`[server] listening on http://localhost:${port} (public URL ${env.APP_URL})`);
  onListening?.(server);

  function shutdown(signal) {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log(`[server] ${signal}: finishing in-flight requests`);
    server.close(() => {
      Promise.resolve(mod().shutdown?.()).finally(() => process.exit(0));
    });
    // Keep-alive connections close as soon as their request in flight is answered.
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => process.exit(0), 10_000).unref();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  return server;
}
