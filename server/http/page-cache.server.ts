import crypto from "node:crypto";
import zlib from "node:zlib";
import { isCategory } from "#domain/categories";
import type { Env } from "../env.server";
import { securityHeaders } from "./security.server";

/**
 * Cache of anonymous public pages. Rendered once, gzipped once, served from memory. Each hit
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

/** Only anonymous GETs of public pages, with no query except a category of the templates that exists. */
export function cacheKeyFor(method: string, url: string, hasCookie: boolean): string | null {
  if (method !== "GET" || hasCookie) return null;
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
  if (status !== 200 || headers.has("set-cookie") || !(headers.get("content-type") ?? "").startsWith("text/html"))
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
    const overridden = new Set(
      [...Object.keys(security), "Vary", "Content-Encoding", "Content-Length"].map((k) => k.toLowerCase()),
    );
    const fixed: string[] = [];
    for (const [k, v] of page.headers) if (!overridden.has(k.toLowerCase())) fixed.push(k, v);
    for (const [k, v] of Object.entries(security)) if (k !== "Content-Security-Policy") fixed.push(k, v);
    fixed.push("Vary", "Accept-Encoding");
    if (gzip) fixed.push("Content-Encoding", "gzip");
    fixed.push("Content-Length", String((gzip ? page.gzip : page.body).length));
    head = page.heads[slot] = { fixed, cspBefore: csp.slice(0, at), cspAfter: csp.slice(at + marker.length) };
  }
  return [...head.fixed, "Content-Security-Policy", head.cspBefore + nonce + head.cspAfter];
}

export function clearPageCache(): void {
  pages.clear();
}

/** How many pages are cached (for tests and diagnostics). */
export function cachedPageCount(): number {
  return pages.size;
}
