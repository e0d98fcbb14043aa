// The HTTP server: the request-line refusals, the page cache, then `admit` (the host pinned, the
// security headers, the refusals that need no body), then express for files or Remix. `start()` takes the Remix build it is bundled with (server/bundle.ts: one module graph,
// so the database, env and request scope it shares with the app exist once) and boots the domain.
import http from "node:http";
import proxyaddr from "proxy-addr";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "@remix-run/node";
import { boot, shutdown as stopBackgroundWork } from "./boot.server";
import { catalogueVersionReader } from "./db/catalogue-version.server";
import { calendarEnvReader } from "./studio/calendar.server";
import { env as readEnv, applyLocalDefaults } from "./env.server";
import { getDb, getSqlite } from "./db/db.server";
import type { Certificates } from "./acme/certificates.server";
import { listen, listenProblem } from "./http/listen.server";
import { log, REQUEST_ID_HEADER, requestIdOf, requestLogger, routeConsoleToLog } from "./log.server";
import {
  cacheKeyFor,
  cachedPageHead,
  getCachedPage,
  isApiKey,
  matchesEtag,
  notModifiedHead,
  renderOnce,
  storePage,
  type CachedPage,
} from "./http/page-cache.server";
import { acceptsGzip, createRemixHandler, type RequestFacts } from "./http/remix-handler";
import { withRequestScope } from "./http/disk-full.server";
import { keepServingThroughRequestFaults } from "./http/escapes.server";
import { isFilePath } from "./http/file-paths";
import { createFilesApp } from "./http/files.server";
import { trustedProxy } from "./http/trust-proxy";
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
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) =>
    logRequest(req, res, () => void ready.then(() => handle(req, res)));
  const { PORT, HOST: host, DOMAIN, HTTPS_PORT, HTTP_PORT } = readEnv();
  // DOMAIN: HTTPS on HTTPS_PORT with its own certificate, and HTTP_PORT for the authority's
  // challenges and the redirect (issue 45.3); else plain HTTP on PORT, behind a proxy. The TLS
  // servers and the certificate's keeper load only for DOMAIN: a start behind a proxy never loads
  // node:tls and node:https (issue 42.4).
  let certs: Certificates | null = null;
  const tlsPair = DOMAIN
    ? (await import("./http/tls-servers.server")).tlsServers({
        onRequest,
        logRequest,
        domain: DOMAIN,
        httpsPort: HTTPS_PORT,
        certs: () => certs,
      })
    : null;
  const server = tlsPair?.secure ?? http.createServer(onRequest);
  const port = tlsPair ? HTTPS_PORT : PORT;
  const listeners = tlsPair
    ? ([
        [server, port, "HTTPS_PORT"],
        [tlsPair.plain, HTTP_PORT, "HTTP_PORT"],
      ] as const)
    : ([[server, port, "PORT"]] as const);
  for (const [listener, at, variable] of listeners) {
    try {
      await listen(listener, at, host);
    } catch (error) {
      console.error(`[server] ${listenProblem(error as NodeJS.ErrnoException, at, host, variable)}`);
      process.exit(1);
    }
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
  if (env.DOMAIN) certs = (await import("./acme/https.server")).startCertificates(env, getDb(env.DATA_DIR));
  const catalogueVersion = catalogueVersionReader(getSqlite(env.DATA_DIR));
  // The calendar link saved in Settings is the one frame the policy allows.
  const headerEnv = calendarEnvReader(getSqlite(env.DATA_DIR), env);

  const appHost = new URL(env.APP_URL).host;
  // Files (the browser build, fonts, stored files, the favicon) are the files app's (express's static
  // serving, gzipped); a path no file answers (robots.txt, sitemap.xml, a booking's .ics) goes on to
  // Remix. Every other request goes to Remix straight from `handle` (decision 030): express's request
  // and response wrappers cost a rendered page about a tenth. The files app is made at the first
  // request for a file: express and its dependencies are not evaluated at every start (issue 42.4).
  let filesApp: Promise<(req: http.IncomingMessage, res: http.ServerResponse) => void> | undefined;
  function files(req: http.IncomingMessage, res: http.ServerResponse) {
    filesApp ??= createFilesApp({
      publicDir,
      trustProxy: env.TRUST_PROXY,
      fallback: (r, s) => void remix(r, s, admitted.get(r)!),
    });
    filesApp.then(
      (app) => app(req, res),
      (error: unknown) => {
        log.error({ err: error, reqId: requestIdOf(req) }, "[server] the files app could not be loaded");
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Internal Server Error");
      },
    );
  }

  const remix = createRemixHandler(build, isDev ? "development" : "production");
  /** What `admit` learnt of each request sent to the files app (read by its Remix fallback). */
  const admitted = new WeakMap<http.IncomingMessage, RequestFacts>();

  /**
   * What every request that is not a cached page passes first: the Host pinned to APP_URL, a CSP
   * nonce and the security headers, then the refusals that need no body (a cross-site write, a
   * form that is not a form, a body larger than the route takes). Null when it was answered.
   */
  function admit(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, search: string) {
    // Requests are always addressed to APP_URL: forwarded or spoofed hosts are never trusted.
    delete req.headers["x-forwarded-host"];
    req.headers.host = appHost;
    const nonce = createNonce();
    const secure = isSecure(req);
    for (const [k, v] of Object.entries(securityHeaders(nonce, headerEnv(), secure))) res.setHeader(k, v);
    const method = req.method ?? "GET";
    const crossSite = isCrossSiteWrite(
      method,
      pathname,
      { origin: headerOf(req, "origin"), secFetchSite: headerOf(req, "sec-fetch-site") },
      env.APP_URL,
    );
    // Refused before the body is read: the connection closes so no unread body is left on it.
    if (crossSite) {
      refuse(res, { status: 403, message: "Cross-site request refused" });
      return null;
    }
    // A form post whose body is not a form: 415 before anything reads it.
    const refusal = formEncodingRefusal(method, req.url ?? "", req.headers["content-type"]);
    if (refusal) {
      refuse(res, refusal);
      return null;
    }
    // The route's body limit: refused at once when Content-Length says more, and counted while a
    // body of any framing (chunked included) streams into Remix (server/http/remix-handler.ts).
    if (isBodyTooLarge(method, pathname, search, req.headers["content-length"])) {
      refuse(res, { status: 413, message: "Request body too large" });
      req.resume();
      return null;
    }
    let clientIp: string | undefined;
    const facts: RequestFacts = {
      loadContext: {
        nonce,
        // The client's address as express gives it (through trusted proxies), worked out when asked.
        get clientIp() {
          return (clientIp ??= proxyaddr(req, trustProxy));
        },
      },
      bodyLimit: bodyLimitFor(method, pathname, search),
      secure,
    };
    return facts;
  }

  /** Admitted, a request goes to the files app or straight to Remix. */
  function dispatch(req: http.IncomingMessage, res: http.ServerResponse) {
    sendRequestId(req, res);
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    const facts = admit(req, res, pathname, q < 0 ? "" : url.slice(q));
    if (!facts) return;
    if (!isFilePath(pathname)) return void remix(req, res, facts);
    admitted.set(req, facts);
    files(req, res);
  }

  // Anonymous public pages are served from memory (server/http/page-cache.server.ts): rendered
  // once through Remix, gzipped once, each hit with a fresh CSP nonce.
  const renderPage = isDev ? null : createFetchHandler(build, "production");

  /** `reqId`: the request whose miss renders it (the lines the render writes carry it). */
  async function renderForCache(key: string, version: number, reqId?: string): Promise<CachedPage | null> {
    if (!renderPage) return null;
    const nonce = createNonce();
    const request = new Request(env.APP_URL + key, {
      headers: { accept: isApiKey(key) ? "application/json" : "text/html", "user-agent": "studio-page-cache-bot" },
    });
    const { result: response } = await withRequestScope(() => renderPage(request, { nonce, clientIp: "" }), reqId);
    const body = Buffer.from(await response.arrayBuffer());
    return storePage(key, response.status, response.headers, body, version);
  }

  /**
   * Express's `req.secure` for a request that bypasses express: TLS, or `X-Forwarded-Proto: https`
   * from a proxy the app's "trust proxy" setting trusts.
   */
  const trustProxy = trustedProxy(env.TRUST_PROXY);
  /**
   * Whether the peer at an address is a trusted proxy, remembered per address: proxy-addr parses
   * the address at each call (a tenth of a cached page's time, issue 42.1), and the answer for an
   * address never changes while the process runs. At most 1,024 addresses are kept.
   */
  const trustedPeers = new Map<string, boolean>();
  function trustedPeer(address: string): boolean {
    let trusted = trustedPeers.get(address);
    if (trusted === undefined) {
      if (trustedPeers.size >= 1024) trustedPeers.clear();
      trustedPeers.set(address, (trusted = trustProxy(address, 0)));
    }
    return trusted;
  }
  function isSecure(req: http.IncomingMessage): boolean {
    if ((req.socket as { encrypted?: boolean }).encrypted) return true;
    if (!trustedPeer(req.socket.remoteAddress ?? "")) return false;
    return (
      String(req.headers["x-forwarded-proto"] ?? "")
        .split(",")[0]
        .trim() === "https"
    );
  }

  function sendCached(req: http.IncomingMessage, res: http.ServerResponse, page: CachedPage) {
    // The whole head in one writeHead, the request's id in it: no header is set before (Node then
    // takes the head as it is instead of setting each header in turn; issue 42.2).
    if (page.etag && matchesEtag(headerOf(req, "if-none-match") ?? undefined, page.etag)) {
      const head = notModifiedHead(page, createNonce(), headerEnv(), isSecure(req));
      head.push(REQUEST_ID_HEADER, requestIdOf(req) ?? "-");
      res.writeHead(304, head);
      res.end();
      return;
    }
    const gzip = acceptsGzip(req);
    const head = cachedPageHead(page, createNonce(), headerEnv(), isSecure(req), gzip);
    head.push(REQUEST_ID_HEADER, requestIdOf(req) ?? "-");
    res.writeHead(page.status, head);
    res.end(gzip ? page.gzip : page.body);
  }

  /** Answers a refusal before anything reads the request; the connection closes (its body is never read). */
  function refuse(res: http.ServerResponse, refusal: Pick<Refusal, "message" | "headers"> & { status: number }) {
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
    if (lineRefusal) {
      sendRequestId(req, res);
      return refuse(res, lineRefusal);
    }
    const key = renderPage ? cacheKeyFor(req.method ?? "", req.url ?? "", Boolean(req.headers.cookie)) : null;
    if (!key) return dispatch(req, res);
    try {
      // Concurrent misses of one page share one render.
      // Read per request: a change made anywhere (the console, an operator command) shows at once.
      const version = catalogueVersion();
      const page =
        getCachedPage(key, version) ??
        (await renderOnce(`${key}\n${version}`, () => renderForCache(key, version, requestIdOf(req))));
      if (!page) return dispatch(req, res);
      sendCached(req, res, page);
    } catch (error) {
      log.error({ err: error, reqId: requestIdOf(req) }, "[page-cache] render failed; answered by Remix");
      dispatch(req, res);
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
    certs?.stop();
    tlsPair?.plain.close();
    server.close(() => {
      stopBackgroundWork().finally(() => process.exit(0));
    });
    // Keep-alive connections close as soon as their request in flight is answered.
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => process.exit(0), 10_000).unref();
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  // An error that escapes a request's handling is logged and drops that request, not the server.
  keepServingThroughRequestFaults();
  // What a library prints to the console is a line of the JSON log too (development keeps its
  // printed mail readable).
  if (!isDev) routeConsoleToLog();
  return server;
}

/**
 * The request log's id for the request (server/log.server.ts), sent back as X-Request-Id with
 * whatever answers it; a cached page carries it in its head instead.
 */
function sendRequestId(req: http.IncomingMessage, res: http.ServerResponse): void {
  const id = requestIdOf(req);
  if (id) res.setHeader(REQUEST_ID_HEADER, id);
}

/** One request header as a string (the first, when sent more than once), or null. */
function headerOf(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
