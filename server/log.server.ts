// The server's log: one JSON line per event on stdout (twelve-factor: the journal keeps it), or
// human lines with LOG_FORMAT=pretty. pino-pretty runs in this process as a stream, never as a pino
// transport: transports start worker threads that load files by path, which the single binary's
// bundle does not have. Every request is one line (requestLogger); every other line
// carries the request id of the request it was written for, when there is one. Nothing personal
// and no token goes into a line: paths go through logPath, and callers log ids, never addresses.
// See docs/decisions/027-request-logs.md.
import crypto from "node:crypto";
import fs from "node:fs";
import { SourceMap } from "node:module";
import type http from "node:http";
import { inspect } from "node:util";
import { destination as sonicBoom, pino, stdTimeFunctions, type Logger } from "pino";
import pretty from "pino-pretty";
import { logPath } from "./log-path";

export type LogFormat = "json" | "pretty";

let requestIdSource: (() => string | undefined) | undefined;

/**
 * Where the logger learns which request a line is written for: the request scope Remix's requests
 * already run in (server/http/disk-full.server.ts). Not a scope of its own around every request:
 * on Node 20 an AsyncLocalStorage slows every promise under it, and a cached page has no line to add.
 */
export function logRequestIdsFrom(source: () => string | undefined): void {
  requestIdSource = source;
}

/**
 * What libraries write with `console.*` (remix-auth-email-link prints a garbled sign-in token's
 * stack with console.error; issue 40.5) becomes lines of this log: one JSON line each, with the
 * request's id, an Error's stack in `err`, the message prefixed `[console]`. The server's own
 * code never writes to the console once it serves; the plain lines before that (a refusal to
 * start) and the operator commands' output are written before this is called, or never.
 */
export function routeConsoleToLog(logger: Logger = log): void {
  const write = (level: "info" | "warn" | "error", args: unknown[]) => {
    const err = args.find((a) => a instanceof Error);
    const text = args
      .filter((a) => a !== err)
      .map((a) => (typeof a === "string" ? a : inspect(a, { depth: 3, breakLength: Infinity })))
      .join(" ");
    logger[level](err ? { err } : {}, `[console] ${text || (err as Error).message}`);
  };
  console.log = (...args: unknown[]) => write("info", args);
  console.info = (...args: unknown[]) => write("info", args);
  console.debug = (...args: unknown[]) => write("info", args);
  console.warn = (...args: unknown[]) => write("warn", args);
  console.error = (...args: unknown[]) => write("error", args);
  console.trace = (...args: unknown[]) => write("warn", args);
}

/** The response header that carries the request's id (set by server/index.ts with the answer). */
export const REQUEST_ID_HEADER = "X-Request-Id";
/** The id the request logger gave `req`. */
export const requestIdOf = (req: http.IncomingMessage): string | undefined => (req as { id?: string }).id;

const EMAIL = /([\w.+-])[\w.+-]*@([\w-]+(?:\.[\w-]+)+)/g;

/** `ada@example.com` → `a***@example.com`: a line may say which domain, never whose address. */
export function maskEmails(text: string): string {
  // No "@", no address: most lines (every request's) skip the expression.
  return text.includes("@") ? text.replace(EMAIL, "$1***@$2") : text;
}

let bundleMap: { file: () => string | null; bundle: string; frame: RegExp; map?: SourceMap | null } | undefined;

/**
 * The single binary's stacks: Node maps the stacks of modules it loads itself (server/main.js turns
 * that on for `npm start`), not of the bundle the binary compiles with vm, so a logged stack's
 * frames in `bundle` are mapped here through `mapFile` (read once, at the first error logged).
 */
export function mapStacksThrough(mapFile: string | (() => string | null), bundle: string): void {
  const escaped = bundle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const file = typeof mapFile === "string" ? () => mapFile : mapFile;
  bundleMap = { file, bundle, frame: new RegExp(`${escaped}:(\\d+):(\\d+)`, "g") };
}

let releaseMap: NodeJS.Timeout | undefined;

function mapStack(stack: string): string {
  if (!bundleMap || !stack.includes(bundleMap.bundle)) return stack;
  if (bundleMap.map === undefined) {
    try {
      const file = bundleMap.file();
      bundleMap.map = file ? new SourceMap(JSON.parse(fs.readFileSync(file, "utf8"))) : null;
    } catch {
      bundleMap.map = null;
    }
  }
  const map = bundleMap.map;
  if (!map) return stack;
  // Parsed, the map holds some 13 MB: let go a minute after the last error that needed it.
  clearTimeout(releaseMap);
  releaseMap = setTimeout(() => bundleMap?.map && (bundleMap.map = undefined), 60_000).unref();
  return stack.replace(bundleMap.frame, (frame, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (!entry.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return frame;
    // esbuild names sources relative to the bundle's folder at build time: the repository's paths remain.
    const source = entry.originalSource.replace(/^file:\/\//, "").replace(/^(\.\.\/)+/, "");
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/**
 * An error as a line holds it: its type, message, code and stack (source-mapped: server/main.js,
 * server/binary.js), and its cause's message. Not its other properties: an SDK's error carries the
 * request and response it came with (headers, parameters).
 */
export function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: maskEmails(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: maskEmails(error.message),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    stack: maskEmails(mapStack(error.stack ?? "")),
    ...(error.cause !== undefined ? { cause: serializeError(error.cause).message } : {}),
  };
}

/**
 * Standard output, written by this thread (never queued for the thread pool, so lines stay in
 * order). The request lines (`requestLog`) gather up to 4 KB and go out in one write, at the latest
 * 50 ms after the first, and all at once when the process exits: one write per request was a
 * sixth of a cached page's time (issue 42.1). Every other line goes out at once, after the request
 * lines gathered before it. A process killed outright loses at most those 50 ms of request lines.
 */
type SonicBoom = ReturnType<typeof sonicBoom>;
let stdout: SonicBoom | undefined;
function sharedStdout(): SonicBoom {
  if (!stdout) {
    const stream = (stdout = sonicBoom({ fd: 1, sync: true, minLength: 4096, periodicFlush: 50 }));
    process.on("exit", () => stream.flushSync());
  }
  return stdout;
}
const stdoutNow = () => ({
  write(line: string) {
    const stream = sharedStdout();
    stream.write(line);
    stream.flushSync();
  },
});

/** A logger writing to stdout in `format`; `destination` for tests. */
export function createLogger(
  format: LogFormat,
  destination?: NodeJS.WritableStream | { write(s: string): void },
  { gathered = false }: { gathered?: boolean } = {},
) {
  const options = {
    base: undefined,
    serializers: { err: serializeError },
    // The last guard: an address that reaches a message anyway is masked.
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === "string" ? maskEmails(a) : a)),
        );
      },
    },
    timestamp: stdTimeFunctions.isoTime,
    // Lines written while a request is handled carry its id (the merge object's own keys win).
    mixin: () => {
      const reqId = requestIdSource?.();
      return reqId ? { reqId } : {};
    },
  };
  if (format === "pretty") {
    // Synchronous, line by line: readable lines are for a person at a terminal, not a server under load.
    const stream = pretty({
      sync: true,
      translateTime: "SYS:yyyy-mm-dd HH:MM:ss.l",
      ignore: "pid,hostname",
      singleLine: true,
      ...(destination ? { destination: destination as NodeJS.WritableStream } : {}),
    });
    return pino(options, stream);
  }
  return pino(options, (destination as NodeJS.WritableStream | undefined) ?? (gathered ? sharedStdout() : stdoutNow()));
}

/** LOG_FORMAT as env.server.ts declares it; a wrong value is refused there, at boot. */
export const logFormat: LogFormat = process.env.LOG_FORMAT === "pretty" ? "pretty" : "json";

/** The process's logger. */
export const log: Logger = createLogger(logFormat);
/** The request lines' logger: the same lines, gathered before they are written (sharedStdout). */
const requestLog: Logger = createLogger(logFormat, undefined, { gathered: true });

/** The URL as the client asked for it: Express rewrites `req.url` under a mount (`/build`). */
const urlOf = (req: http.IncomingMessage) => (req as { originalUrl?: string }).originalUrl ?? req.url ?? "";

/**
 * The request log: call `(req, res, handle)` first thing for each request. It gives the request an
 * id (`requestIdOf`; server/index.ts sends it back as X-Request-Id with the answer; one a client
 * sends is not taken, so ids in the log are the server's own), runs `handle`, and writes one line when the response finishes or the client
 * leaves: error for a 5xx, warn for a 4xx, info otherwise (a response the client left before it
 * was sent whole says `aborted`). Lines written
 * while Remix handles it carry the id (logRequestIdsFrom).
 *
 * Written here rather than with pino-http, which made a child logger and three listeners for each
 * request: the request log was a quarter of a cached page's time (issue 42.1, docs/performance.md).
 * The line is the one pino-http wrote: reqId, method, path, status, ms, bytes (headers included,
 * counted by the connection: what it had sent when the request arrived and when the line is
 * written, since a connection answers its requests one after the other; decision 027) and
 * `aborted` when the client went away first.
 */
export function requestLogger(
  logger: Logger = requestLog,
  direct: { write(line: string): unknown } | null = logger === requestLog && logFormat === "json"
    ? sharedStdout()
    : null,
) {
  // The process's own JSON request lines are written here as pino writes them (the same keys in
  // the same order, the message masked the same way), straight onto the gathered stdout: pino's
  // generic path (its hooks, mixin, serializers and a key-by-key JSON) was half of the log's time
  // on a cached page (issue 42.1). A logger handed in, and the pretty format, go through pino
  // (`direct`: where the lines go written here; tests/unit/request-line.test.ts holds them to pino's).
  // One listener for every response, not a closure per request (a cached page is answered in some
  // 150 µs: a closure, and the name the bundle gives it, were measurable).
  function writeLine(this: http.ServerResponse) {
    const state = (this as Logged)[LOGGED];
    if (!state || state.written) return;
    state.written = true;
    const req = state.req;
    const status = this.statusCode;
    const path = logPath(urlOf(req));
    const level = status >= 500 ? "error" : status >= 400 ? "warn" : "info";
    const now = Date.now();
    const bytes = Math.max(0, (req.socket?.bytesWritten ?? 0) - state.sentBefore);
    if (direct) {
      direct.write(
        `{"level":${LEVELS[level]},"time":"${isoTime(now)}","reqId":${JSON.stringify(state.id)},"method":${JSON.stringify(req.method)},"path":${JSON.stringify(path)},"status":${status},"ms":${now - state.started},"bytes":${bytes}${this.writableFinished ? "" : ',"aborted":true'},"msg":${JSON.stringify(maskEmails(`${req.method} ${path} ${status}`))}}\n`,
      );
      return;
    }
    logger[level](
      {
        reqId: state.id,
        method: req.method,
        path,
        status,
        ms: now - state.started,
        bytes,
        ...(this.writableFinished ? {} : { aborted: true }),
      },
      `${req.method} ${path} ${status}`,
    );
  }
  return function logRequest<T>(req: http.IncomingMessage, res: http.ServerResponse, handle: () => T): T {
    const id = crypto.randomUUID();
    (req as { id?: string }).id = id;
    (res as Logged)[LOGGED] = {
      req,
      id,
      started: Date.now(),
      sentBefore: req.socket?.bytesWritten ?? 0,
      written: false,
    };
    // "close" follows every response: after "finish" when it was sent whole, alone when the client
    // went first (`aborted`), after "error" when writing failed. One listener instead of three.
    res.on("close", writeLine);
    return handle();
  };
}

/** pino's numbers for the request lines' levels. */
const LEVELS = { info: 30, warn: 40, error: 50 } as const;

let isoMs = -1;
let iso = "";
/** `new Date(ms).toISOString()`, made once per millisecond (a busy server writes many lines in one). */
function isoTime(ms: number): string {
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

/** What the request log keeps on a response until its line is written. */
const LOGGED = Symbol("request log");
type Logged = http.ServerResponse & {
  [LOGGED]?: { req: http.IncomingMessage; id: string; started: number; sentBefore: number; written: boolean };
};
