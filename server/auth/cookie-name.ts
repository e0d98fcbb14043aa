/**
 * Names of the site's own cookies. Over https they carry the `__Host-` prefix, which browsers
 * accept only with Secure, Path=/ and no Domain: no sibling subdomain or plain-http page can set
 * or shadow them. Over plain http (local runs and tests) the prefix is impossible, so the name
 * is `__<base>`.
 */
export function hostCookieName(base: string, secure: boolean): string {
  return secure ? `__Host-${base}` : `__${base}`;
}
