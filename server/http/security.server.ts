import crypto from "node:crypto";
import type { Env } from "../env.server";
import { trustedOrigin } from "#domain/web-url";

const NONCE_BYTES = 16;
const POOL_NONCES = 256;
let pool = Buffer.alloc(0);
let poolAt = 0;

/** A fresh 128-bit CSP nonce, base64; random bytes are drawn 4 KB at a time. */
export function createNonce(): string {
  if (poolAt + NONCE_BYTES > pool.length) {
    pool = crypto.randomBytes(NONCE_BYTES * POOL_NONCES);
    poolAt = 0;
  }
  const nonce = pool.toString("base64", poolAt, poolAt + NONCE_BYTES);
  poolAt += NONCE_BYTES;
  return nonce;
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy of every response: scripts only from us or with this
 * request's nonce, frames only from the scheduling calendar, never framed ourselves.
 */
export function contentSecurityPolicy(
  nonce: string,
  e: Pick<Env, "CALENDLY_URL" | "GOOGLE_AUTH_BASE" | "STRIPE_API_BASE" | "isProduction">,
  scriptHashes: string[] = [],
): string {
  // The calendar is let into scripts and frames only when its URL passes the one rule (web-url.ts).
  const calendly = trustedOrigin(e.CALENDLY_URL);
  const formTargets = ["'self'", "https://accounts.google.com", "https://checkout.stripe.com"];
  const googleBase = originOf(e.GOOGLE_AUTH_BASE);
  if (googleBase) formTargets.push(googleBase);
  // A Stripe-compatible server standing in for Stripe (tests): its hosted checkout is where /pay posts go.
  const stripeBase = originOf(e.STRIPE_API_BASE);
  if (stripeBase) formTargets.push(stripeBase);
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, ...scriptHashes, ...(calendly ? [calendly] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(e.isProduction ? [] : ["ws:"])],
    "frame-src": calendly ? [calendly] : ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": formTargets,
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(" ")}`)
    .join("; ");
}

export function securityHeaders(
  nonce: string,
  e: Env,
  secureRequest: boolean,
  scriptHashes: string[] = [],
): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(nonce, e, scriptHashes),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
  if (secureRequest || e.APP_URL.startsWith("https://")) {
    headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  }
  return headers;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Paths that authenticate their callers another way (the Stripe and Calendly webhooks' signatures). */
const CROSS_SITE_EXEMPT = ["/webhooks/stripe", "/webhooks/calendly"];

/**
 * True when a state-changing request comes from another site: its Origin differs from
 * APP_URL's, or (without Origin) the browser marks it cross-site.
 */
export function isCrossSiteWrite(
  method: string,
  pathname: string,
  headers: { origin?: string | null; secFetchSite?: string | null },
  appUrl: string,
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  if (CROSS_SITE_EXEMPT.includes(pathname)) return false;
  const expected = originOf(appUrl);
  if (headers.origin && headers.origin !== "null") {
    return headers.origin !== expected;
  }
  if (headers.origin === "null") return true;
  const site = headers.secFetchSite;
  if (site && site !== "same-origin" && site !== "none") return true;
  return false;
}

const MB = 1024 * 1024;
/** Room for a multipart body's boundaries, part headers and the step's other fields. */
const FORM_OVERHEAD = 256 * 1024;

/**
 * The route a request reaches, whatever form it arrives in: a Remix data request for the same
 * URL (`/booking.data`, `/_root.data`, the `index` and `_routes` parameters) counts as the page.
 */
export function routePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path || "/";
}

/** Booking uploads: one file per request with JavaScript, the whole step-5 batch without. */
export const BOOKING_FILE_LIMIT = 10 * MB + FORM_OVERHEAD;
export const BOOKING_STEP5_LIMIT = 5 * 10 * MB + FORM_OVERHEAD;

/**
 * The largest request body accepted for a write, by route: checked against Content-Length before
 * anything is read, and counted while any body streams (413 either way).
 */
export function bodyLimitFor(method: string, pathname: string, search: string): number {
  if (SAFE_METHODS.has(method.toUpperCase())) return 0;
  const route = routePathOf(pathname);
  const params = new URLSearchParams(search);
  if (route === "/booking" && params.get("step") === "5") return BOOKING_STEP5_LIMIT;
  if (route === "/booking/files") return BOOKING_FILE_LIMIT;
  if (route === "/admin/upload") return params.get("bucket") === "template-files" ? 100 * MB + MB : 15 * 5 * MB + MB;
  // A case study's form with up to 6 pictures of 10 MB (Settings → Case studies).
  if (route === "/admin/settings" && params.get("section") === "caseStudies") return 6 * 10 * MB + MB;
  return MB;
}

export function isBodyTooLarge(
  method: string,
  pathname: string,
  search: string,
  contentLength: string | undefined | null,
): boolean {
  if (!contentLength || SAFE_METHODS.has(method.toUpperCase())) return false;
  const n = Number(contentLength);
  return Number.isFinite(n) && n > bodyLimitFor(method, pathname, search);
}

const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST"]);
/** Routes whose writes carry JSON or raw bodies, read by their own handlers. */
const RAW_BODY_PREFIXES = ["/api/trpc/", "/webhooks/"];

export type Refusal = { status: 400 | 405 | 415; message: string; headers?: Record<string, string> };

/**
 * A request line no route can answer, refused with a 4xx before anything else looks at it: a
 * method the site does not use (TRACE, PUT, ...) or a request target that is not a path (`*`,
 * an absolute URL, `//host`).
 */
export function requestLineRefusal(method: string, target: string): Refusal | null {
  if (!ALLOWED_METHODS.has(method.toUpperCase()))
    return { status: 405, message: "Method not allowed", headers: { Allow: "GET, HEAD, POST" } };
  if (!target.startsWith("/") || target.startsWith("//"))
    return { status: 400, message: "Bad request: the request target must be a path" };
  return null;
}

/**
 * A form post whose body is not a form (text/plain, JSON, multipart without a boundary), refused
 * with 415 before anything reads it. Routes that read JSON or raw bodies are not forms.
 */
export function formEncodingRefusal(
  method: string,
  target: string,
  contentType: string | undefined | null,
): Refusal | null {
  if (method.toUpperCase() !== "POST") return null;
  const path = target.split("?")[0];
  if (RAW_BODY_PREFIXES.some((p) => path.startsWith(p))) return null;
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("application/x-www-form-urlencoded")) return null;
  if (type.startsWith("multipart/form-data") && /;\s*boundary=[^;\s]+/.test(type)) return null;
  return {
    status: 415,
    message: "Unsupported form encoding: send the form as application/x-www-form-urlencoded or multipart/form-data",
  };
}
