// Node's http -> Remix, without express (the HTTP server in server/index.ts hands every request
// that is not a file straight here; decision 030). Like @remix-run/express, but documents and JSON
// are answered as one buffer: the body is read whole (entry.server renders documents whole
// anyway), gzipped in one pass and written with its Content-Length. Anything else (files, CSV,
// event streams) is streamed, gzipped on the way when it is text the client takes gzipped.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, Transform } from "node:stream";
import zlib from "node:zlib";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import { withRequestScope } from "./disk-full.server";
import { log, requestIdOf } from "../log.server";

/** Bodies that are answered whole: rendered documents, loader/tRPC JSON, small text. */
const BUFFERED = /^(?:text\/html|application\/json|text\/plain|application\/xml|text\/xml)\b/i;
/** Smaller bodies are not worth a gzip header and a CPU pass. */
const MIN_GZIP_BYTES = 1024;
/** Streamed bodies worth gzipping on the way (CSV exports, calendar files, event streams). */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|javascript)\b|image\/svg\+xml\b)/i;

/** The request's headers as `admit` in server/index.ts left them (Host pinned, no X-Forwarded-Host). */
function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}

/** A body still arriving after this long must keep up at least SLOW_BODY_MIN_RATE on average. */
export const SLOW_BODY_MS = 60_000;
/** Bytes per second: a 100 MB upload on a 1 Mbit/s line passes; a trickle is cut off at 60 s. */
export const SLOW_BODY_MIN_RATE = 64 * 1024;

/** Answers `status` unless something was already answered; the connection then closes. */
function answerAndClose(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    req.socket?.destroy();
    return;
  }
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  res.end(message);
  res.once("finish", () => req.socket?.destroy());
}

/**
 * The request body counted while it streams, whatever its framing: past `limit` bytes the client
 * gets 413, the handler's read fails and the rest is drained without being kept. A body that is
 * still arriving after 60 s at less than 64 KB/s on average gets 408 and its connection closes.
 * `drainRest()` reads and drops what the handler left unread (an early 401/403), so the
 * kept-alive connection can carry the next request.
 */
function countedBody(req: IncomingMessage, res: ServerResponse, limit: number, controller: AbortController) {
  let seen = 0;
  const started = Date.now();
  const counter = new Transform({
    transform(chunk, _encoding, callback) {
      seen += chunk.length;
      if (seen <= limit) return callback(null, chunk);
      refuse();
      callback(new Error("Request body too large"));
    },
  });
  const slowCheck = setInterval(() => {
    if (req.complete || req.destroyed) return clearInterval(slowCheck);
    const elapsed = Date.now() - started;
    if (elapsed < SLOW_BODY_MS || seen >= (SLOW_BODY_MIN_RATE * elapsed) / 1000) return;
    clearInterval(slowCheck);
    controller.abort(new Error("Request body timed out"));
    counter.destroy(new Error("Request body timed out"));
    answerAndClose(req, res, 408, "The request body arrived too slowly. Please try again.");
  }, 1000).unref();
  req.once("end", () => clearInterval(slowCheck));
  req.once("close", () => clearInterval(slowCheck));
  function refuse() {
    req.unpipe(counter);
    if (!res.headersSent) {
      res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Request body too large");
    }
    controller.abort(new Error("Request body too large"));
    // The rest is read and dropped (never kept) so the client reads the 413 instead of a reset
    // and the connection stays usable; a client still sending after 5 s is cut off.
    req.on("data", () => {});
    req.resume();
    const cutOff = setTimeout(() => req.socket?.destroy(), 5000).unref();
    req.once("end", () => clearTimeout(cutOff));
  }
  function drainRest() {
    if (req.complete || req.destroyed || seen > limit) return;
    req.unpipe(counter);
    req.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) req.socket?.destroy();
    });
    req.resume();
  }
  req.on("error", (error) => counter.destroy(error));
  req.pipe(counter);
  return { stream: counter, drainRest };
}

function toRequest(req: IncomingMessage, res: ServerResponse, controller: AbortController, facts: RequestFacts) {
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: requestHeaders(req),
    signal: controller.signal,
  };
  let body: ReturnType<typeof countedBody> | null = null;
  if (req.method !== "GET" && req.method !== "HEAD") {
    body = countedBody(req, res, facts.bodyLimit, controller);
    init.body = createReadableStreamFromReadable(body.stream);
    init.duplex = "half";
  }
  const url = `${facts.secure ? "https" : "http"}://${req.headers.host}${req.url}`;
  return { request: new Request(url, init), body };
}

/** Whether the client takes gzip (also used for the cached pages in server/index.ts). */
export function acceptsGzip(req: IncomingMessage): boolean {
  return /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
}

/**
 * Pages, redirects and data (JSON, single-fetch streams) answered to someone the server knows
 * (any cookie: a session, a booking draft) and everything under /admin are never stored by a
 * browser or a shared cache. Files keep their own policy (storage links set theirs).
 */
function isPersonal(req: IncomingMessage): boolean {
  return Boolean(req.headers.cookie) || isConsolePath((req.url ?? "").split("?")[0]);
}

/** The admin console's paths: `/admin`, `/admin/settings`, `/admin.data`, … */
export function isConsolePath(pathname: string): boolean {
  return /^\/admin(?:[/.]|$)/.test(pathname);
}

/** Adds Accept-Encoding to the response's Vary (once). */
function varyOnEncoding(res: ServerResponse): void {
  const vary = String(res.getHeader("Vary") ?? "");
  if (!/\baccept-encoding\b/i.test(vary)) res.setHeader("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  // Already answered (413 while the body streamed): what the handler made of it is dropped.
  if (res.headersSent) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  // The route's own header wins over the default `admit` set (one Referrer-Policy on /pay, not
  // two); only cookies are added one by one.
  for (const [key, value] of response.headers) {
    if (key === "set-cookie") res.appendHeader(key, value);
    else res.setHeader(key, value);
  }
  const type = response.headers.get("content-type") ?? "";
  if (isPersonal(req) && (!response.body || BUFFERED.test(type) || /^text\/x-script\b/i.test(type)))
    res.setHeader("Cache-Control", "private, no-store");
  if (!response.body) {
    res.end();
    return;
  }
  if (!BUFFERED.test(type) || response.headers.has("content-encoding")) {
    if (!response.headers.has("content-encoding") && COMPRESSIBLE.test(type)) {
      varyOnEncoding(res);
      if (acceptsGzip(req)) return sendGzipped(res, response.body, /text\/event-stream/i.test(type));
    }
    if (/text\/event-stream/i.test(type)) res.flushHeaders();
    await writeReadableStreamToWritable(response.body, res);
    return;
  }
  let body = Buffer.from(await response.arrayBuffer());
  varyOnEncoding(res);
  if (body.length >= MIN_GZIP_BYTES && acceptsGzip(req)) {
    body = zlib.gzipSync(body);
    res.setHeader("Content-Encoding", "gzip");
  }
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

/** A streamed text body gzipped on the way (each write flushed for an event stream). */
function sendGzipped(res: ServerResponse, body: ReadableStream<Uint8Array>, flushEach: boolean): Promise<void> {
  res.removeHeader("Content-Length");
  res.setHeader("Content-Encoding", "gzip");
  const gzip = zlib.createGzip(flushEach ? { flush: zlib.constants.Z_SYNC_FLUSH } : {});
  if (flushEach) res.flushHeaders();
  return new Promise<void>((resolve) => {
    pipeline(gzip, res, () => resolve());
    void writeReadableStreamToWritable(body, gzip).catch((error: unknown) => gzip.destroy(error as Error));
  });
}

/**
 * How a request is dropped when an error escapes its handling: its connection is closed if it is
 * still unanswered 5 s later. The response is held weakly: the request scope that keeps this
 * lives on in every timer made under it (a rate limit's expiry, 10 minutes), and must not keep
 * the request with it.
 */
function dropLater(res: ServerResponse): () => void {
  const ref = new WeakRef(res);
  return () =>
    void setTimeout(() => {
      const r = ref.deref();
      if (r && !r.writableFinished) r.socket?.destroy();
    }, 5000).unref();
}

/** What the HTTP server knows of a request before Remix sees it. */
export type RequestFacts = {
  /** The request's context for loaders and actions (its CSP nonce, the client's address). */
  loadContext: AppLoadContext;
  /** The largest body the route accepts (server/http/security.server.ts `bodyLimitFor`). */
  bodyLimit: number;
  /** TLS, or `X-Forwarded-Proto: https` from a trusted proxy: the URL Remix sees is https. */
  secure: boolean;
};

/**
 * The Remix request handler for node's http. A request whose client goes away before the answer
 * is written is aborted (loaders see the signal), as with the official adapter. An error that
 * escapes Remix is logged and answered 500.
 */
export function createRemixHandler(build: ServerBuild, mode: "development" | "production") {
  const handle = createRequestHandler(build, mode);
  return async (req: IncomingMessage, res: ServerResponse, facts: RequestFacts): Promise<void> => {
    try {
      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      const { request, body } = toRequest(req, res, controller, facts);
      const scoped = await withRequestScope(
        () => handle(request, facts.loadContext),
        requestIdOf(req),
        // Dropped when an error escapes its handling (server/http/escapes.server.ts).
        dropLater(res),
      );
      let response = scoped.result;
      // A full data disk anywhere on the way (the route said 500): 507, with a time to come back.
      if (scoped.diskFull && response.status >= 500) {
        response = new Response(response.body, { status: 507, headers: response.headers });
        response.headers.set("Retry-After", "300");
      }
      await send(req, res, response);
      // Answered before reading all of it (a 401 or 403): the rest is read and dropped.
      body?.drainRest();
    } catch (error) {
      log.error({ err: error, reqId: requestIdOf(req) }, "[server] the request could not be answered");
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Internal Server Error");
    }
  };
}
