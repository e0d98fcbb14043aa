// What a request line says about the URL: the path as routed, with the parts that carry a secret or
// a person masked. Pure, so it is unit-tested (tests/unit/log-path.test.ts); server/log.server.ts
// writes it. See docs/decisions/027-request-logs.md.

/** Query keys whose values are kept: they steer a page and say nothing about anyone. */
const KEPT_QUERY_VALUES = new Set(["step", "index", "_routes", "signin", "page"]);

/**
 * Path prefixes whose next segment is a secret (a bearer token in the URL itself): a payment, a
 * proposal, a call's page, the owner's calendar feed.
 */
const SECRET_SEGMENT = /^\/(pay|proposal|call|calendar)\/[^/?#]+/;
/** Stored files: the path may name a client's file, and private buckets are only reached by signed links. */
const STORED_FILE = /^\/files\/([^/?#]+)\/[^?#]*/;
const EMAIL = /[^/@\s]+@[^/@\s]+/g;
const MAX_LENGTH = 512;

const REDACTED = "[redacted]";

/**
 * `/setup?token=abc` → `/setup?token=[redacted]`; `/pay/tok_123` → `/pay/:token` (and `/proposal/`,
 * `/call/`, `/calendar/` likewise);
 * `/files/booking-files/a/b.pdf?exp=1&sig=x` → `/files/booking-files/:path?exp=[redacted]&sig=[redacted]`.
 * Query values are redacted except a few harmless keys (`step`, `index`, …); keys stay, so the line
 * still tells which form or link it was. Anything that looks like an email address in the path is
 * masked. Long URLs are cut at 512 characters.
 */
export function logPath(url: string): string {
  const hash = url.indexOf("#");
  const withoutHash = hash === -1 ? url : url.slice(0, hash);
  const q = withoutHash.indexOf("?");
  let pathname = q === -1 ? withoutHash : withoutHash.slice(0, q);
  const query = q === -1 ? "" : withoutHash.slice(q + 1);

  // Remix's single fetch asks for `<path>.data`: the suffix is kept after a masked segment.
  const data = pathname.endsWith(".data") ? ".data" : "";
  const secret = SECRET_SEGMENT.exec(pathname);
  if (secret) {
    const rest = pathname.slice(secret[0].length);
    pathname = `/${secret[1]}/:token${rest || data}`;
  } else if (STORED_FILE.test(pathname)) pathname = pathname.replace(STORED_FILE, "/files/$1/:path");
  // No "@", no address: most paths skip the expression (it runs for every request line).
  if (pathname.includes("@")) pathname = pathname.replace(EMAIL, ":email");

  let out = pathname;
  if (query) {
    const parts = query.split("&").map((part) => {
      const eq = part.indexOf("=");
      const key = eq === -1 ? part : part.slice(0, eq);
      const safeKey = key.replace(EMAIL, ":email").slice(0, 64);
      if (eq === -1) return safeKey;
      return KEPT_QUERY_VALUES.has(key) && /^[\w.%,/-]{0,128}$/.test(part.slice(eq + 1))
        ? `${safeKey}=${part.slice(eq + 1)}`
        : `${safeKey}=${REDACTED}`;
    });
    out += `?${parts.join("&")}`;
  }
  return out.length > MAX_LENGTH ? `${out.slice(0, MAX_LENGTH)}…` : out;
}
