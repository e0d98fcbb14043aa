import { createCookie } from "@remix-run/node";
import { env } from "../env.server";

/**
 * Names of the site's own cookies. Over https they carry the `__Host-` prefix, which browsers
 * accept only with Secure, Path=/ and no Domain: no sibling subdomain or plain-http page can set
 * or shadow them. Over plain http (local runs and tests) the prefix is impossible, so the name
 * is `__<base>`.
 */
export function hostCookieName(base: string, secure: boolean): string {
  return secure ? `__Host-${base}` : `__${base}`;
}

/**
 * One of the site's own signed cookies (a draft, where to return after signing in, a one-time
 * note): HttpOnly, SameSite=Lax, Secure over https, signed with SESSION_SECRET, for `maxAge` seconds.
 */
export function siteCookie(base: string, maxAge: number) {
  const e = env();
  const secure = e.APP_URL.startsWith("https://");
  return createCookie(hostCookieName(base, secure), {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    secrets: [e.SESSION_SECRET],
    maxAge,
  });
}
