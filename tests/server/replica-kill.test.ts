/**
 * Issue 45.2: a dying VPS (the server and its Litestream SIGKILLed together while visitors book)
 * loses at most the last second: every booking acknowledged more than 1 s before the kill is in
 * what `restore replica:latest` brings back (tests/perf/replica-loss.mjs; `npm run bench` reports
 * the window as the median of five kills).
 */
import { describe, expect, it } from "vitest";
import { replicaLoss } from "../perf/replica-loss.mjs";

describe("the replica after a kill", { tags: ["slow"] }, () => {
  it("holds every booking acknowledged more than 1 s before the server and Litestream died", async () => {
    const windows: number[] = [];
    for (let kill = 0; kill < 3; kill++) {
      const loss = await replicaLoss({ seconds: 4 });
      expect(loss.acknowledged, `kill ${kill}`).toBeGreaterThan(10);
      expect(loss.missingOlderThan1s, `kill ${kill}: ${JSON.stringify(loss)}`).toBe(0);
      windows.push(loss.windowMs);
    }
    console.log(`[replica] loss windows of three kills: ${windows.join(", ")} ms`);
  });
});
