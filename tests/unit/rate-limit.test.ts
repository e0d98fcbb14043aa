import { afterEach, describe, expect, it, vi } from "vitest";
import { clientKeyOf, RateLimiter, TooManyRequests } from "../../server/rate-limit.server";

const limits = { demo: { max: 3, windowSeconds: 60, message: "Slow down" } };

async function refusal(p: Promise<void>): Promise<TooManyRequests | null> {
  try {
    await p;
    return null;
  } catch (error) {
    if (error instanceof TooManyRequests) return error;
    throw error;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Records the size of every Map of more than `min` entries that is walked (forEach, keys, values,
 * entries, for...of) until `restore()`.
 */
function watchMapWalks(min: number) {
  const names = ["forEach", "keys", "values", "entries", Symbol.iterator] as const;
  const proto = Map.prototype as unknown as Record<string | symbol, (...args: unknown[]) => unknown>;
  const originals = names.map((n) => proto[n]);
  const sizes: number[] = [];
  names.forEach((n, i) => {
    proto[n] = function (this: Map<unknown, unknown>, ...args: unknown[]) {
      if (this.size > min) sizes.push(this.size);
      return originals[i].apply(this, args);
    };
  });
  return { sizes, restore: () => names.forEach((n, i) => (proto[n] = originals[i])) };
}

describe("RateLimiter", () => {
  it("allows max hits per window and client, then refuses with the seconds left", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const l = new RateLimiter(limits);
    for (let i = 0; i < 3; i++) await l.hit("demo", "a");
    await l.hit("demo", "b");
    vi.advanceTimersByTime(20_000);
    const refused = await refusal(l.hit("demo", "a"));
    expect(refused).toBeInstanceOf(TooManyRequests);
    expect(refused?.message).toBe("Slow down");
    expect(refused?.retryAfterSeconds).toBe(40);
    // A new window starts once the old one ends.
    vi.advanceTimersByTime(40_000);
    expect(await refusal(l.hit("demo", "a"))).toBeNull();
  });

  it("counts several points at once (a tRPC batch)", async () => {
    const l = new RateLimiter(limits);
    await l.hit("demo", "batch", 3);
    expect(await refusal(l.hit("demo", "batch"))).toBeInstanceOf(TooManyRequests);
  });

  it("with many clients, no request walks the others' windows", async () => {
    const l = new RateLimiter(limits);
    for (let i = 0; i < 60_000; i++) await l.hit("demo", `client-${i}`);
    // The map that pruned itself by walking every key took about 0.6 ms a hit once full (6 s for
    // the hits below). The walk is what made it slow, so the walk is what is watched, not the clock.
    const walks = watchMapWalks(1000);
    try {
      for (let i = 0; i < 10_000; i++) await l.hit("demo", `late-${i}`);
    } finally {
      walks.restore();
    }
    expect(walks.sizes).toEqual([]);
  });

  it("counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4", async () => {
    const l = new RateLimiter(limits);
    await l.hit("demo", "2001:db8:1:2::1");
    await l.hit("demo", "2001:db8:1:2:ffff::9");
    await l.hit("demo", "2001:0db8:0001:0002:0:0:0:abcd");
    expect(await refusal(l.hit("demo", "2001:db8:1:2::77"))).toBeInstanceOf(TooManyRequests);
    expect(await refusal(l.hit("demo", "2001:db8:1:3::1"))).toBeNull();
    for (let i = 0; i < 3; i++) await l.hit("demo", "198.51.100.7");
    expect(await refusal(l.hit("demo", "::ffff:198.51.100.7"))).toBeInstanceOf(TooManyRequests);
  });
});

describe("clientKeyOf", () => {
  it("groups IPv6 by /64 and leaves other keys as they are", () => {
    expect(clientKeyOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKeyOf("2001:DB8:0:0:1::")).toBe("2001:db8:0:0::/64");
    expect(clientKeyOf("::1")).toBe("0:0:0:0::/64");
    expect(clientKeyOf("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
    expect(clientKeyOf("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(clientKeyOf("10.0.0.1")).toBe("10.0.0.1");
    expect(clientKeyOf("user-123")).toBe("user-123");
    expect(clientKeyOf("")).toBe("unknown");
  });
});
