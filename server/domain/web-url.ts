/**
 * One rule for the URLs the studio trusts as origins or endpoints (the calendar link, CALENDLY_URL,
 * BACKUP_S3_ENDPOINT), checked as URLs, never as text: https, or plain http only when the host is
 * this machine (localhost, 127.0.0.0/8, [::1], as tests and a local S3 run), and never a user name
 * or password (`http://localhost:1@evil.example/` is a user "localhost" on evil.example).
 * Client-safe: the console's form and the server read the same rule.
 */

/** A URL's hostname (as `URL` writes it) that is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** What is wrong with a URL by that rule: not a URL, its scheme or host, or credentials in it. */
export type WebUrlProblem = "invalid" | "scheme" | "credentials";

export function webUrlProblem(value: string): WebUrlProblem | null {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return "invalid";
  }
  if (u.username || u.password) return "credentials";
  if (u.protocol === "https:" && u.hostname) return null;
  if (u.protocol === "http:" && isLoopbackHost(u.hostname)) return null;
  return "scheme";
}

/** The URL's origin when it passes the rule, else null. */
export function trustedOrigin(value: string | undefined): string | null {
  if (!value || webUrlProblem(value)) return null;
  return new URL(value).origin;
}
