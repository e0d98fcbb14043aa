// The fetch classes the server runs on (decision 048): undici's, from the package and bundled
// with the server, not the copy inside Node. The first request builds a Request, and Node's own
// copy is compiled at that moment (half a megabyte of JavaScript that no code cache of ours
// covers): some 25 ms of a cold start (issue 42.4). Bundled, the same classes come with the
// server's code cache; `fetch` itself (the connection pool and the HTTP parser) loads at its first
// call. This module is the first import of the server's bundle (server/bundle.ts), so nothing
// sees Node's classes; package.json lists it as the one module with side effects.
// In this order, as undici's own index loads them: response.js defines the body converters that
// request.js reads when it loads (the other way round, every Request with a body throws).
import { Response } from "undici/lib/web/fetch/response.js";
import { Request } from "undici/lib/web/fetch/request.js";
import { Headers } from "undici/lib/web/fetch/headers.js";
import { FormData } from "undici/lib/web/fetch/formdata.js";

let undiciFetch: typeof fetch | undefined;

/** undici's fetch, loaded at the first call (OAuth, the calendar, webhooks out). */
async function firstUseFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  // A CommonJS file: its exports are the namespace's default (as Node's own import() gives them,
  // and the built server's bundle, which has no named exports for it).
  undiciFetch ??= (await import("undici/lib/web/fetch/index.js")).default.fetch;
  return undiciFetch(input, init);
}

Object.assign(globalThis, { FormData, Headers, Request, Response, fetch: firstUseFetch });
