/**
 * In-memory abuse limits for the one-process deployment: a fixed window per client and action.
 * Magic-link sends are limited separately, from the database (server/auth/magic-link.server.ts).
 */

export type LimitName =
  "booking-draft" | "booking-confirm" | "booking-upload" | "admin-upload" | "checkout" | "trpc-mutation";

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
};

export class TooManyRequests extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "TooManyRequests";
  }
}

type Window = { count: number; resetAt: number };

const MAX_KEYS = 50_000;

export class RateLimiter {
  private windows = new Map<string, Window>();
  private hits = 0;

  constructor(private readonly limits: Record<string, Limit> = LIMITS) {}

  /** Counts one attempt; throws TooManyRequests (with the seconds until the window resets) past the limit. */
  hit(name: string, clientKey: string, now = Date.now()): void {
    const limit = this.limits[name];
    if (!limit) throw new Error(`Unknown rate limit ${name}`);
    const key = `${name}\u0000${clientKey || "unknown"}`;
    if (++this.hits % 1000 === 0 || this.windows.size >= MAX_KEYS) this.prune(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + limit.windowSeconds * 1000 };
      this.windows.delete(key);
      this.windows.set(key, w);
    }
    if (w.count >= limit.max) {
      throw new TooManyRequests(limit.message, Math.max(1, Math.ceil((w.resetAt - now) / 1000)));
    }
    w.count++;
  }

  /** Drops expired windows; past MAX_KEYS the oldest go too, so memory stays bounded. */
  private prune(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size < MAX_KEYS) break;
      this.windows.delete(k);
    }
  }

  get size() {
    return this.windows.size;
  }
}

let shared: RateLimiter | undefined;

/** The process-wide limiter. */
export function rateLimit(name: LimitName, clientKey: string): void {
  (shared ??= new RateLimiter()).hit(name, clientKey);
}

export function retryAfterHeaders(error: TooManyRequests): Record<string, string> {
  return { "Retry-After": String(error.retryAfterSeconds) };
}
