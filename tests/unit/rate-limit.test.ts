import { describe, expect, it } from "vitest";
import { RateLimiter, TooManyRequests } from "../../server/http/rate-limit.server";

const limits = { demo: { max: 3, windowSeconds: 60, message: "Slow down" } };

describe("RateLimiter", () => {
  it("allows max hits per window and client, then refuses with the seconds left", () => {
    const l = new RateLimiter(limits);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) l.hit("demo", "a", t0 + i);
    l.hit("demo", "b", t0);
    let refused: unknown;
    try {
      l.hit("demo", "a", t0 + 20_000);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TooManyRequests);
    expect((refused as TooManyRequests).message).toBe("Slow down");
    expect((refused as TooManyRequests).retryAfterSeconds).toBe(40);
    // A new window starts once the old one ends.
    expect(() => l.hit("demo", "a", t0 + 60_000)).not.toThrow();
  });

  it("keeps memory bounded under many clients", () => {
    const l = new RateLimiter(limits);
    for (let i = 0; i < 60_000; i++) l.hit("demo", `client-${i}`, 5_000);
    expect(l.size).toBeLessThanOrEqual(50_000);
    for (let i = 0; i < 1000; i++) l.hit("demo", `late-${i}`, 5_000 + 61_000);
    expect(l.size).toBeLessThanOrEqual(1000);
  });
});
