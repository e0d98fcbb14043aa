import net from "node:net";
import RateLimiterMemory from "rate-limiter-flexible/lib/RateLimiterMemory.js";
import RateLimiterRes from "rate-limiter-flexible/lib/RateLimiterRes.js";
import { TooManyRequests } from "./errors";

export { TooManyRequests };

/**
 * In-memory abuse limits for the one-process deployment: a fixed window per client and action.
 * Magic-link sends are limited separately, from the database (server/auth/magic-link.server.ts).
 */

export type LimitName =
  "booking-draft" | "booking-confirm" | "booking-upload" | "admin-upload" | "checkout" | "trpc-mutation" | "setup";

type Limit = { max: number; windowSeconds: number; message: string };

/** Generous for people (an office behind one address, an admin at work), tight for scripts. */
export const LIMITS: Record<LimitName, Limit> = {
  // A new booking draft (a row) for a post without a draft cookie: one per visitor in practice.
  "booking-draft": {
    max: 100,
    windowSeconds: 60 * 60,
    message: "Too many new booking forms from your network. Please wait a while and try again, or email us.",
  },
  "booking-confirm": {
    max: 20,
    windowSeconds: 60 * 60,
    message: "Too many bookings from your network. Please try again later or email us.",
  },
  "booking-upload": {
    max: 40,
    windowSeconds: 10 * 60,
    message: "Too many uploads. Please wait a few minutes and try again.",
  },
  "admin-upload": {
    max: 200,
    windowSeconds: 10 * 60,
    message: "Too many uploads. Please wait a few minutes and try again.",
  },
  checkout: {
    max: 20,
    windowSeconds: 10 * 60,
    message: "Too many checkout attempts. Please wait a few minutes and try again.",
  },
  "trpc-mutation": {
    max: 120,
    windowSeconds: 60,
    message: "Too many requests. Please slow down and try again in a minute.",
  },
  // The first run's form (/setup): one person, a few tries; writes only with the one live token.
  setup: {
    max: 20,
    windowSeconds: 10 * 60,
    message: "Too many attempts. Please wait a few minutes and try again.",
  },
};

/**
 * The key a client is counted under: an IPv6 address by its /64 (one subscriber's whole prefix,
 * which they can rotate through at will), an IPv4-mapped IPv6 address as the IPv4, anything else
 * (an IPv4 address, a user id) as it is.
 */
export function clientKeyOf(key: string): string {
  if (net.isIPv4(key)) return key;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(key);
  if (mapped && net.isIPv4(mapped[1])) return mapped[1];
  if (!net.isIPv6(key)) return key || "unknown";
  const [head, tail = ""] = key.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = key.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Fixed windows per client and limit, counted by rate-limiter-flexible's memory store: a window
 * starts with a client's first attempt and each record is removed when its window ends (the store
 * sets a timer per key), so memory follows the clients of the last window and no request scans
 * the others.
 */
export class RateLimiter {
  private readonly limiters = new Map<string, { limit: Limit; store: RateLimiterMemory }>();

  constructor(limits: Record<string, Limit> = LIMITS) {
    for (const [name, limit] of Object.entries(limits)) {
      this.limiters.set(name, {
        limit,
        store: new RateLimiterMemory({ points: limit.max, duration: limit.windowSeconds }),
      });
    }
  }

  /**
   * Counts `points` attempts (a tRPC batch counts each call); rejects with TooManyRequests (with
   * the seconds until the window ends) past the limit.
   */
  async hit(name: string, clientKey: string, points = 1): Promise<void> {
    const limiter = this.limiters.get(name);
    if (!limiter) throw new Error(`Unknown rate limit ${name}`);
    try {
      await limiter.store.consume(clientKeyOf(clientKey), points);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new TooManyRequests(limiter.limit.message, Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
  }
}

let shared: RateLimiter | undefined;

/** The process-wide limiter: counts `points` attempts of `clientKey` (an address or a user id). */
export function rateLimit(name: LimitName, clientKey: string, points = 1): Promise<void> {
  return (shared ??= new RateLimiter()).hit(name, clientKey, points);
}
