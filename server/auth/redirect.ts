/**
 * A remembered path is honoured only when it is a same-site relative path:
 * starts with one "/", no scheme, no "//" or "\" tricks, no control characters.
 */
export function safeRedirectPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string") return fallback;
  const v = value.trim();
  if (!v.startsWith("/") || v.startsWith("//") || v.startsWith("/\\")) return fallback;
  if (v.includes("\\") || [...v].some((c) => c.charCodeAt(0) < 0x20) || v.length > 500) return fallback;
  try {
    const u = new URL(v, "http://placeholder.invalid");
    if (u.origin !== "http://placeholder.invalid") return fallback;
    return u.pathname + u.search + u.hash;
  } catch {
    return fallback;
  }
}
