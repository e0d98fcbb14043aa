import crypto from "node:crypto";
import zlib from "node:zlib";

/**
 * Cache of anonymous public pages. Rendered once, gzipped once, served from memory. Each hit
 * still gets a fresh CSP nonce; the cached page's inline scripts are allowed by their hashes.
 * Entries expire after a minute and are dropped whenever the catalogue changes.
 */
const TTL_MS = 60_000;
const MAX_ENTRIES = 200;

const g = globalThis as typeof globalThis & { __studioCatalogueVersion?: number };

/** Called after anything that changes what public pages show (templates, sales counts). */
export function bumpCatalogueVersion(): void {
  g.__studioCatalogueVersion = (g.__studioCatalogueVersion ?? 0) + 1;
}
export function catalogueVersion(): number {
  return g.__studioCatalogueVersion ?? 0;
}

export type CachedPage = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  gzip: Buffer;
  scriptHashes: string[];
  version: number;
  expires: number;
};

const CACHEABLE = [/^\/$/, /^\/packages$/, /^\/process$/, /^\/work$/, /^\/work\/[\w-]+$/, /^\/terms$/, /^\/privacy$/, /^\/templates$/, /^\/templates\/[a-z0-9-]+$/];

/** Only anonymous GETs of public pages, with no query except the templates category. */
export function cacheKeyFor(method: string, url: string, hasCookie: boolean): string | null {
  if (method !== "GET" || hasCookie) return null;
  const u = new URL(url, "http://x");
  if (!CACHEABLE.some((r) => r.test(u.pathname))) return null;
  const params = [...u.searchParams.keys()];
  if (params.length === 0) return u.pathname;
  if (u.pathname === "/templates" && params.length === 1 && params[0] === "category" && /^[a-z]{1,20}$/.test(u.searchParams.get("category")!)) {
    return `${u.pathname}?category=${u.searchParams.get("category")}`;
  }
  return null;
}

const pages = new Map<string, CachedPage>();

export function getCachedPage(key: string, now = Date.now()): CachedPage | null {
  const hit = pages.get(key);
  if (!hit) return null;
  if (hit.expires < now || hit.version !== catalogueVersion()) {
    pages.delete(key);
    return null;
  }
  return hit;
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
export function storePage(key: string, status: number, headers: Headers, body: Buffer, version: number): CachedPage | null {
  if (status !== 200 || headers.has("set-cookie") || !(headers.get("content-type") ?? "").startsWith("text/html")) return null;
  if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
  const kept: [string, string][] = [];
  headers.forEach((v, k) => {
    if (!["content-length", "content-encoding", "transfer-encoding", "date", "connection", "content-security-policy"].includes(k)) kept.push([k, v]);
  });
  const page: CachedPage = {
    status,
    headers: kept,
    body,
    gzip: zlib.gzipSync(body, { level: 9 }),
    scriptHashes: inlineScriptHashes(body.toString("utf8")),
    version,
    expires: Date.now() + TTL_MS,
  };
  pages.set(key, page);
  return page;
}

export function clearPageCache(): void {
  pages.clear();
}
