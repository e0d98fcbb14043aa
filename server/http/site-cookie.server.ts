import { createCookie } from "@remix-run/node";
import { hostCookieName } from "../auth/cookie-name";
import { env } from "../env.server";

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
