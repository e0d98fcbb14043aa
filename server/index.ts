// The HTTP server: static files, security headers, cross-site write refusal, the page cache, then
// Remix. `start()` takes the Remix build it is bundled with (server/bundle.ts: one module graph,
// so the database, env and request scope it shares with the app exist once) and boots the domain.
import http from "node:http";
import path from "node:path";
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import compression from "compression";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "@remix-run/node";
import { boot, shutdown as stopBackgroundWork } from "./boot.server";
import { catalogueVersionReader } from "./shop/catalogue.server";
import { calendarEnvReader } from "./studio/calendar.server";
import { env as readEnv, applyLocalDefaults } from "./env.server";
import { getSqlite } from "./db/db.server";
import { log, requestIdOf, requestLogger } from "./log.server";
import {
  cacheKeyFor,
  cachedPageHead,
  getCachedPage,
  renderOnce,
  storePage,
  type CachedPage,
} from "./http/page-cache.server";
import { acceptsGzip, createRemixHandler } from "./http/remix-handler";
import { withRequestScope } from "./http/disk-full.server";
import { storedFiles } from "./http/stored-files";
import {
  bodyLimitFor,
  createNonce,
  formEncodingRefusal,
  isBodyTooLarge,
  isCrossSiteWrite,
  requestLineRefusal,
  securityHeaders,
  type Refusal,
} from "./http/security.server";

export type StartOptions = {
  /** The Remix server build (server/bundle.ts). */
  build: ServerBuild;
  /** public/: fonts, the browser build under build/, the favicon. */
  publicDir: string;
  /** NODE_ENV was not set: the local defaults apply (APP_URL on localhost, a secret generated into DATA_DIR). */
  localRun?: boolean;
  isDev?: boolean;
  /** Development's hook (broadcastDevReady). */
  onListening?: (server: http.Server) => void;
};

/**
 * Boots the domain (migrations, seed, timers) and serves HTTP on the env's PORT; SIGTERM and
 * SIGINT shut it down gracefully. Resolves with the http.Server once it listens.
 */
export async function start({
  build,
  publicDir,
  localRun = false,
  isDev = false,
  onListening,
}: StartOptions): Promise<http.Server> {
  if (localRun) {
    const local = applyLocalDefaults();
    log.info(
      `[server] NODE_ENV not set: running locally at ${local.APP_URL} with the session secret in ${local.secretFile}. To deploy, set NODE_ENV=production, APP_URL and SESSION_SECRET.`,
    );
  }
  // The settings first, every problem on its own line (issue 33.1) ...
  try {
    readEnv();
  } catch (error) {
    for (const line of (error instanceof Error ? error.message : String(error)).split("\n"))
      console.error(`[config] ${line}`);
    process.exit(1);
  }
  // ... then the address, before any migration runs (33.5): requests that arrive while the
  // database is prepared wait for it.
  let booted!: () => void;
  const ready = new Promise<void>((resolve) => (booted = resolve));
  // Every request, cached page, static file and refusal alike, is one line of the log.
  const logRequest = requestLogger();
  const server = http.createServer((req, res) => logRequest(req, res, () => void ready.then(() => handle(req, res))));
  const { PORT: port, HOST: host } = readEnv();
  try {
    await listen(server, port, host);
  } catch (error) {
    console.error(`[server] ${listenProblem(error as NodeJS.ErrnoException, port, host)}`);
    process.exit(1);
  }
  try {
    await boot();
  } catch (error) {
    // A refusal to start is one plain line on stderr, for the person at the terminal or in
    // `systemctl status` (the settings are not in place, so neither may the log be).
    console.error(`[boot] ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  const env = readEnv();
  const catalogueVersion = catalogueVersionReader(getSqlite(env.DATA_DIR));
  // The calendar link saved in Settings is the one frame the policy allows.
  const headerEnv = calendarEnvReader(getSqlite(env.DATA_DIR), env);

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(compression());

  const appHost = new URL(env.APP_URL).host;
  app.use((req, res, next) => {
    // Requests are always addressed to APP_URL: forwarded or spoofed hosts are never trusted.
    delete req.headers["x-forwarded-host"];
    req.headers.host = appHost;
    const nonce = createNonce();
    res.locals.nonce = nonce;
    const headers = securityHeaders(nonce, headerEnv(), req.secure);
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    const crossSite = isCrossSiteWrite(
      req.method,
      req.path,
      {
        origin: req.get("origin") ?? null,
        secFetchSite: req.get("sec-fetch-site") ?? null,
      },
      env.APP_URL,
    );
    if (crossSite) {
      // Refused before its body is read: the connection closes so no unread body is left on it.
      res.status(403).set("Connection", "close").type("text/plain").send("Cross-site request refused");
      return;
    }
    // A form post whose body is not a form: 415 before anything reads it.
    const refusal = formEncodingRefusal(req.method, req.url, req.get("content-type"));
    if (refusal) {
      refuse(res, refusal);
      return;
    }
    const search = req.url.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
    // The route's body limit: refused at once when Content-Length says more, and counted while a
    // body of any framing (chunked included) streams into Remix (server/remix-handler.js).
    res.locals.bodyLimit = bodyLimitFor(req.method, req.path, search);
    if (isBodyTooLarge(req.method, req.path, search, req.get("content-length"))) {
      res.status(413).set("Connection", "close").type("text/plain").send("Request body too large");
      req.resume();
      return;
    }
    next();
  });

  app.use("/build", express.static(path.join(publicDir, "build"), { immutable: true, maxAge: "1y" }));
  app.use("/fonts", express.static(path.join(publicDir, "fonts"), { immutable: true, maxAge: "1y" }));
  // Stored files (images, booking files, template archives): decided by the domain, sent by `send`.
  app.get("/files/:bucket/*", storedFiles());
  // Other files in public/ (the favicon): only paths that name a file are looked up on disk, so
  // page requests skip the stat and the error it makes for a directory.
  const publicFiles = express.static(publicDir, { maxAge: "1h", index: false, redirect: false });
  app.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));

  const getLoadContext = (q: ExpressRequest, r: ExpressResponse) => ({
    nonce: r.locals.nonce as string,
    clientIp: q.ip ?? "",
  });
  const bodyLimit = (_q: ExpressRequest, r: ExpressResponse) => (r.locals.bodyLimit as number | undefined) ?? 0;
  app.all("*", createRemixHandler(build, isDev ? "development" : "production", getLoadContext, bodyLimit));

  // Anonymous public pages are served from memory (server/http/page-cache.server.ts): rendered
  // once through Remix, gzipped once, each hit with a fresh CSP nonce.
  const renderPage = isDev ? null : createFetchHandler(build, "production");

  /** `reqId`: the request whose miss renders it (the lines the render writes carry it). */
  async function renderForCache(key: string, version: number, reqId?: string): Promise<CachedPage | null> {
    if (!renderPage) return null;
    const nonce = createNonce();
    const request = new Request(env.APP_URL + key, {
      headers: { accept: "text/html", "user-agent": "studio-page-cache-bot" },
    });
    const { result: response } = await withRequestScope(() => renderPage(request, { nonce, clientIp: "" }), reqId);
    const body = Buffer.from(await response.arrayBuffer());
    return storePage(key, response.status, response.headers, body, version);
  }

  /**
   * Express's `req.secure` for a request that bypasses express: TLS, or `X-Forwarded-Proto: https`
   * from a proxy the app's "trust proxy" setting trusts.
   */
  const trustProxy = app.get("trust proxy fn");
  function isSecure(req: http.IncomingMessage): boolean {
    if ((req.socket as { encrypted?: boolean }).encrypted) return true;
    if (!trustProxy(req.socket.remoteAddress ?? "", 0)) return false;
    return (
      String(req.headers["x-forwarded-proto"] ?? "")
        .split(",")[0]
        .trim() === "https"
    );
  }

  function sendCached(req: http.IncomingMessage, res: http.ServerResponse, page: CachedPage) {
    const gzip = acceptsGzip(req);
    res.writeHead(page.status, cachedPageHead(page, createNonce(), headerEnv(), isSecure(req), gzip));
    res.end(gzip ? page.gzip : page.body);
  }

  /** Answers a refusal before anything reads the request; the connection closes (its body is never read). */
  function refuse(res: http.ServerResponse, refusal: Refusal) {
    res.writeHead(refusal.status, {
      ...refusal.headers,
      "Content-Type": "text/plain; charset=utf-8",
      Connection: "close",
    });
    res.end(refusal.message);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    // Every request passes here first: a method or request target no route answers is a 4xx.
    const lineRefusal = requestLineRefusal(req.method ?? "", req.url ?? "");
    if (lineRefusal) return refuse(res, lineRefusal);
    const key = renderPage ? cacheKeyFor(req.method ?? "", req.url ?? "", Boolean(req.headers.cookie)) : null;
    if (!key) return app(req, res);
    try {
      // Concurrent misses of one page share one render.
      // Read per request: a change made anywhere (the console, an operator command) shows at once.
      const version = catalogueVersion();
      const page =
        getCachedPage(key, version) ??
        (await renderOnce(`${key}\n${version}`, () => renderForCache(key, version, requestIdOf(req))));
      if (!page) return app(req, res);
      sendCached(req, res, page);
    } catch (error) {
      log.error({ err: error, reqId: requestIdOf(req) }, "[page-cache] render failed; answered by Remix");
      app(req, res);
    }
  }

  let shuttingDown = false;
  // Booted: requests go straight to the handler from now on; those that waited, too.
  server.removeAllListeners("request");
  server.on("request", (req, res) => logRequest(req, res, () => handle(req, res)));
  booted();
  log.info(
    `[server] listening on ${host ? `${host}:${port}` : `port ${port} of every interface`} (public URL ${env.APP_URL})`,
  );
  onListening?.(server);

  function shutdown(signal: string) {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info(`[server] ${signal}: finishing in-flight requests`);
    server.close(() => {
      stopBackgroundWork().finally(() => process.exit(0));
    });
    // Keep-alive connections close as soon as their request in flight is answered.
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => process.exit(0), 10_000).unref();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  return server;
}

/**
 * Listens on HOST:PORT (every interface without HOST). A body still arriving after 60 s must
 * average 64 KB/s (408 otherwise, in server/remix-handler.js); Node's own limit on a whole request
 * is only the backstop for a 100 MB upload on a slow line. A burst of visitors (1,200 connections
 * at once in tests/server/faults.test.ts) waits in the kernel's queue while renders hold the event
 * loop; at Node's default of 511 the rest were dropped or reset. The kernel caps it at
 * net.core.somaxconn.
 */
function listen(server: http.Server, port: number, host: string | undefined): Promise<void> {
  server.requestTimeout = 30 * 60_000;
  server.headersTimeout = 60_000;
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, backlog: 4096 }, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Why the server could not listen, in one line that says what to do. */
export function listenProblem(error: NodeJS.ErrnoException, port: number, host: string | undefined): string {
  const where = host ? `${host}:${port}` : `port ${port}`;
  switch (error.code) {
    case "EADDRINUSE":
      return `cannot listen on ${where}: it is already in use by another program (EADDRINUSE); stop that program or set PORT to a free port`;
    case "EACCES":
      return `cannot listen on ${where}: this user may not use ports below 1024 (EACCES); set PORT to 1024 or above and let the proxy listen on 80 and 443`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${where}: ${host} is not an address of this machine (EADDRNOTAVAIL); set HOST to one of its addresses, 127.0.0.1 or 0.0.0.0`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot listen on ${where}: HOST ${host} is not a name this machine can resolve (${error.code})`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}
