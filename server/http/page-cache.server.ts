import crypto from "node:crypto";
import zlib from "node:zlib";
import { isCategory } from "#domain/categories";
import type { Env } from "../env.server";
import { securityHeaders } from "./security.server";

/**
 * Cache of anonymous public pages, and of the shop's public tRPC reads (issue 42.2: the catalogue
 * as JSON, `templates.list`, `templates.featured` and `templates.bySlug`, with an ETag that a
 * conditional request gets a 304 for). Rendered once, gzipped once, served from memory. Each hit
 * still gets a fresh CSP nonce; the cached page's inline scripts are allowed by their hashes.
 * Entries expire after a minute and are dropped once the catalogue's version (kept in the
 * database, server/shop/catalogue.server.ts; the caller reads it) is newer than theirs.
 * Keys are pages that exist (a query value must be a known category), so a client cannot mint
 * entries; past MAX_ENTRIES the least recently used entry goes; concurrent misses of one key
 * share one render (renderOnce).
 */
const TTL_MS = 60_000;
export const MAX_ENTRIES = 200;

export type CachedPage = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  gzip: Buffer;
  scriptHashes: string[];
  version: number;
  expires: number;
  /** Response heads built on first use, by [https][gzip] (see cachedPageHead). */
  heads: (CachedHead | undefined)[];
  /** When it was last stored or served (a counter): the least recently used is evicted first. */
  used: number;
  /** A tRPC answer's entity tag (weak: the same for the gzipped and the plain body), else null. */
  etag: string | null;
};

type CachedHead = { fixed: string[]; cspBefore: string; cspAfter: string };

const CACHEABLE = [
  /^\/$/,
  /^\/packages$/,
  /^\/process$/,
  /^\/work$/,
  /^\/work\/[\w-]+$/,
  /^\/terms$/,
  /^\/privacy$/,
  /^\/templates$/,
  /^\/templates\/[a-z0-9-]+$/,
];

/** The public tRPC reads kept like pages: what every visitor is answered alike. */
const PUBLIC_READS = new Set(["/api/trpc/templates.list", "/api/trpc/templates.featured"]);
const BY_SLUG = "/api/trpc/templates.bySlug";

/**
 * The key of a public tRPC read, or null: `templates.list` and `templates.featured` without input,
 * `templates.bySlug` with a slug's own characters (an unknown one is a 404, which is not kept, so a
 * client cannot mint entries). A batch, or any other procedure, is answered by tRPC every time.
 */
function apiKeyFor(url: string): string | null {
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (PUBLIC_READS.has(path)) return q < 0 ? path : null;
  if (path !== BY_SLUG || q < 0) return null;
  const params = new URLSearchParams(url.slice(q + 1));
  if ([...params.keys()].join() !== "input") return null;
  let input: unknown;
  try {
    input = JSON.parse(params.get("input") ?? "");
  } catch {
    return null;
  }
  const slug = (input as { slug?: unknown } | null)?.slug;
  if (typeof slug !== "string" || !/^[a-z0-9-]{1,80}$/.test(slug) || Object.keys(input as object).length !== 1)
    return null;
  return `${BY_SLUG}?input=${encodeURIComponent(JSON.stringify({ slug }))}`;
}

/** Whether a key is a tRPC answer's (JSON) rather than a page's (HTML). */
export const isApiKey = (key: string) => key.startsWith("/api/trpc/");

/** Only anonymous GETs of public pages, with no query except a category of the templates that exists. */
export function cacheKeyFor(method: string, url: string, hasCookie: boolean): string | null {
  if (method !== "GET" || hasCookie) return null;
  if (url.startsWith("/api/trpc/")) return apiKeyFor(url);
  // A plain path that already matches is its own key (parsing it as a URL would not change it).
  if (!url.includes("?") && CACHEABLE.some((r) => r.test(url))) return url;
  const u = new URL(url, "http://x");
  if (!CACHEABLE.some((r) => r.test(u.pathname))) return null;
  const params = [...u.searchParams.keys()];
  if (params.length === 0) return u.pathname;
  if (
    u.pathname === "/templates" &&
    params.length === 1 &&
    params[0] === "category" &&
    isCategory(u.searchParams.get("category"))
  ) {
    return `${u.pathname}?category=${u.searchParams.get("category")}`;
  }
  return null;
}

const pages = new Map<string, CachedPage>();
let clock = 0;

/** The page stored under `key`, unless it expired or was rendered at another catalogue `version`. */
export function getCachedPage(key: string, version: number, now = Date.now()): CachedPage | null {
  const hit = pages.get(key);
  if (!hit) return null;
  if (hit.expires < now || hit.version !== version) {
    pages.delete(key);
    return null;
  }
  hit.used = ++clock;
  return hit;
}

const rendering = new Map<string, Promise<CachedPage | null>>();

/**
 * Renders a missing page once however many requests miss it at the same time: the first miss
 * calls `render(key)` (which renders and stores the page), the others wait for that same render.
 * A failed render fails every waiter (each then renders for itself); the next miss tries again.
 */
export function renderOnce(
  key: string,
  render: (key: string) => Promise<CachedPage | null>,
): Promise<CachedPage | null> {
  let pending = rendering.get(key);
  if (!pending) {
    pending = Promise.resolve()
      .then(() => render(key))
      .finally(() => rendering.delete(key));
    rendering.set(key, pending);
  }
  return pending;
}

/** Makes room for one entry: an expired or outdated entry if there is one, else the least recently used. */
function evictOne(now: number, version: number) {
  let oldestKey: string | undefined;
  let oldest = Infinity;
  for (const [k, p] of pages) {
    if (p.expires < now || p.version !== version) {
      pages.delete(k);
      return;
    }
    if (p.used < oldest) {
      oldest = p.used;
      oldestKey = k;
    }
  }
  if (oldestKey !== undefined) pages.delete(oldestKey);
}

/** The sha256 sources of every inline script in a document. */
export function inlineScriptHashes(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    out.add(`'sha256-${crypto.createHash("sha256").update(m[1], "utf8").digest("base64")}'`);
  }
  return [...out];
}

/** Stores a rendered page when it is cacheable: 200, HTML, no cookie set. */
export function storePage(
  key: string,
  status: number,
  headers: Headers,
  body: Buffer,
  version: number,
): CachedPage | null {
  const api = isApiKey(key);
  const type = headers.get("content-type") ?? "";
  if (status !== 200 || headers.has("set-cookie") || !type.startsWith(api ? "application/json" : "text/html"))
    return null;
  if (!pages.has(key) && pages.size >= MAX_ENTRIES) evictOne(Date.now(), version);
  const kept: [string, string][] = [];
  headers.forEach((v, k) => {
    if (
      ![
        "content-length",
        "content-encoding",
        "transfer-encoding",
        "date",
        "connection",
        "content-security-policy",
      ].includes(k)
    )
      kept.push([k, v]);
  });
  const page: CachedPage = {
    status,
    headers: kept,
    body,
    gzip: zlib.gzipSync(body, { level: 9 }),
    scriptHashes: inlineScriptHashes(body.toString("utf8")),
    version,
    expires: Date.now() + TTL_MS,
    heads: [],
    used: ++clock,
    etag: api ? `W/"${version}-${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` : null,
  };
  pages.set(key, page);
  return page;
}

/**
 * The raw response head of a cached page for `res.writeHead(status, head)`: the page's own
 * headers, the security headers, Vary, Content-Encoding and Content-Length. Everything but the
 * CSP nonce is the same for every hit, so it is built once per page and per (https, gzip).
 */
export function cachedPageHead(page: CachedPage, nonce: string, e: Env, secure: boolean, gzip: boolean): string[] {
  const slot = (secure ? 2 : 0) + (gzip ? 1 : 0);
  let head = page.heads[slot];
  if (!head) {
    const marker = "\u0000";
    const security = securityHeaders(marker, e, secure, page.scriptHashes);
    const csp = security["Content-Security-Policy"];
    const at = csp.indexOf(marker);
    // Later headers replace earlier ones of the same name, as setHeader would: the head goes to
    // writeHead whole, which sends a name given twice twice.
    const byName = new Map<string, [string, string]>();
    const put = (k: string, v: string) => byName.set(k.toLowerCase(), [k, v]);
    for (const [k, v] of page.headers)
      if (!["vary", "content-encoding", "content-length"].includes(k.toLowerCase())) put(k, v);
    for (const [k, v] of Object.entries(security)) if (k !== "Content-Security-Policy") put(k, v);
    byName.delete("content-security-policy");
    put("Vary", "Accept-Encoding");
    // A tRPC answer is asked for again each time (no-cache), and answered 304 while it is the same.
    if (page.etag) {
      put("ETag", page.etag);
      put("Cache-Control", "no-cache");
    }
    if (gzip) put("Content-Encoding", "gzip");
    put("Content-Length", String((gzip ? page.gzip : page.body).length));
    const fixed = [...byName.values()].flat();
    head = page.heads[slot] = { fixed, cspBefore: csp.slice(0, at), cspAfter: csp.slice(at + marker.length) };
  }
  return [...head.fixed, "Content-Security-Policy", head.cspBefore + nonce + head.cspAfter];
}

/**
 * The raw head of a 304 for a cached tRPC answer the client already holds (its If-None-Match
 * names the ETag): the security headers, Vary, ETag and Cache-Control, no body.
 */
export function notModifiedHead(page: CachedPage, nonce: string, e: Env, secure: boolean): string[] {
  const head: string[] = [];
  for (const [k, v] of Object.entries(securityHeaders(nonce, e, secure, page.scriptHashes))) head.push(k, v);
  head.push("Vary", "Accept-Encoding", "ETag", page.etag ?? "", "Cache-Control", "no-cache");
  return head;
}

/** Whether an If-None-Match header names `etag` (a list, or `*`; weak comparison, RFC 9110). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string | null): boolean {
  if (!ifNoneMatch || !etag) return false;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === bare;
  });
}

export function clearPageCache(): void {
  pages.clear();
}

/** How many pages are cached (for tests and diagnostics). */
export function cachedPageCount(): number {
  return pages.size;
}
