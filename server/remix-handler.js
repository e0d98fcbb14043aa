// Express -> Remix. Like @remix-run/express, but documents and JSON are answered as one buffer:
// the body is read whole (entry.server renders documents whole anyway), gzipped in one pass
// and written with its Content-Length, instead of being piped chunk by chunk through web
// streams and the compression middleware. Anything else (files, event streams) is streamed.
import { Transform } from "node:stream";
import zlib from "node:zlib";
import { createReadableStreamFromReadable, createRequestHandler, writeReadableStreamToWritable } from "@remix-run/node";

/** Bodies that are answered whole: rendered documents, loader/tRPC JSON, small text. */
const BUFFERED = /^(?:text\/html|application\/json|text\/plain|application\/xml|text\/xml)\b/i;
/** Smaller bodies are not worth a gzip header and a CPU pass. */
const MIN_GZIP_BYTES = 1024;

/** The request's headers as the security middleware in main.js left them (Host pinned, no X-Forwarded-Host). */
function requestHeaders(req) {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}

/**
 * The request body counted while it streams, whatever its framing: past `limit` bytes the client
 * gets 413, the handler's read fails and the rest is drained without being kept.
 */
function countedBody(req, res, limit, controller) {
  let seen = 0;
  const counter = new Transform({
    transform(chunk, _encoding, callback) {
      seen += chunk.length;
      if (seen <= limit) return callback(null, chunk);
      refuse();
      callback(new Error("Request body too large"));
    },
  });
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
  req.on("error", (error) => counter.destroy(error));
  req.pipe(counter);
  return counter;
}

function toRequest(req, res, controller, limit) {
  const init = { method: req.method, headers: requestHeaders(req), signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(countedBody(req, res, limit, controller));
    init.duplex = "half";
  }
  return new Request(`${req.protocol}://${req.headers.host}${req.originalUrl}`, init);
}

/** Whether the client takes gzip (also used for the cached pages in main.js). */
export function acceptsGzip(req) {
  return /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
}

async function send(req, res, response) {
  // Already answered (413 while the body streamed): what the handler made of it is dropped.
  if (res.headersSent) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [key, value] of response.headers) res.appendHeader(key, value);
  if (!response.body) {
    res.end();
    return;
  }
  const type = response.headers.get("content-type") ?? "";
  if (!BUFFERED.test(type) || response.headers.has("content-encoding")) {
    if (/text\/event-stream/i.test(type)) res.flushHeaders();
    await writeReadableStreamToWritable(response.body, res);
    return;
  }
  let body = Buffer.from(await response.arrayBuffer());
  res.vary("Accept-Encoding");
  if (body.length >= MIN_GZIP_BYTES && acceptsGzip(req)) {
    body = zlib.gzipSync(body);
    res.setHeader("Content-Encoding", "gzip");
  }
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

/**
 * The Remix request handler for express. `getLoadContext(req, res)` gives each request's context.
 * A request whose client goes away before the answer is written is aborted (loaders see the
 * signal), as with the official adapter.
 */
export function createRemixHandler(build, mode, getLoadContext, bodyLimit) {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      const request = toRequest(req, res, controller, bodyLimit(req, res));
      const response = await handle(request, getLoadContext(req, res));
      await send(req, res, response);
    } catch (error) {
      if (res.headersSent) return;
      next(error);
    }
  };
}
