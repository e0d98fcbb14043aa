/**
 * A remembered path is honoured only when it is a same-site relative path:
 * starts with one "/", no scheme, no "//" or "\" tricks, no control characters.
 * The path is normalised first ("/./", "/../" resolved) and checked again afterwards, so that
 * "/.//evil.example" cannot become "//evil.example", which a browser reads as another host.
 */
export function safeRedirectPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string") return fallback;
  const v = value.trim();
  if (!isPlainPath(v)) return fallback;
  if (v.includes("\\") || [...v].some((c) => c.charCodeAt(0) < 0x20) || v.length > 500) return fallback;
  try {
    const base = "http://placeholder.invalid";
    const u = new URL(v, base);
    if (u.origin !== base) return fallback;
    const out = u.pathname + u.search + u.hash;
    // The normalised path must still be a plain path on this site.
    if (!isPlainPath(u.pathname) || new URL(out, base).origin !== base) return fallback;
    return out;
  } catch {
    return fallback;
  }
}

const isPlainPath = (p: string) => p.startsWith("/") && !p.startsWith("//") && !p.startsWith("/\\");
