/**
 * TRUST_PROXY outside express (server/http/trust-proxy.ts): for every kind of setting the server
 * takes, the same answers as express's "trust proxy" setting, for peers near and far.
 */
import express from "express";
import { describe, expect, it } from "vitest";
import { trustedProxy } from "../../server/http/trust-proxy";

const SETTINGS: (string | number)[] = [
  "loopback",
  "loopback, linklocal, uniquelocal",
  "10.0.0.0/8",
  "203.0.113.7,198.51.100.0/24",
  "::1",
  "fd00::/8",
  0,
  1,
  2,
];
const ADDRESSES = ["127.0.0.1", "::1", "10.1.2.3", "169.254.1.1", "fd12::1", "203.0.113.7", "198.51.100.9", "8.8.8.8"];

describe("trustedProxy", () => {
  it.each(SETTINGS)("answers as express's trust proxy %s does", (setting) => {
    const app = express();
    app.set("trust proxy", setting);
    const theirs = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
    const ours = trustedProxy(setting);
    for (const address of ADDRESSES)
      for (const hop of [0, 1, 2, 3]) expect(ours(address, hop), `${address} at hop ${hop}`).toBe(theirs(address, hop));
  });
});
