import proxyaddr from "proxy-addr";

/** Whether the hop at `address` (0: the socket's peer) is a proxy whose forwarded headers are believed. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY (validated by server/env.server.ts: a number of hops, or addresses, ranges and
 * proxy-addr's keywords separated by commas) as the function express's "trust proxy" setting
 * compiles it to, for the requests that never pass through express (server/index.ts).
 * tests/unit/trust-proxy.test.ts holds it to express's own for each kind of setting.
 */
export function trustedProxy(setting: string | number): TrustProxy {
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyaddr.compile(setting.split(",").map((part) => part.trim()));
}
