import { Cron } from "croner";
import { describe, expect, it } from "vitest";
import { cronProblem, cronZone } from "../../server/cron";

// Issue 42.4: a schedule in UTC runs as a fixed offset of zero, without Intl (whose first use
// loads ICU's data at start); it must fire at the very moments the named zone gives.
describe("a schedule's zone", () => {
  const expressions = ["0 3 * * *", "30 23 * * 0", "0 0 1 * *", "15 * * * *", "0 12 29 2 *"];
  const from = [new Date("2026-03-29T00:30:00Z"), new Date("2026-10-25T01:59:59Z"), new Date("2027-12-31T23:59:00Z")];

  it("UTC gives the same runs as croner's named UTC zone", () => {
    for (const expr of expressions)
      for (const start of from) {
        const fixed = new Cron(expr, { ...cronZone("UTC"), paused: true });
        const named = new Cron(expr, { timezone: "UTC", paused: true });
        expect(fixed.nextRuns(5, start).map(String), `${expr} from ${start.toISOString()}`).toEqual(
          named.nextRuns(5, start).map(String),
        );
      }
  });

  it("any other zone goes by its name", () => {
    expect(cronZone("Europe/Berlin")).toEqual({ timezone: "Europe/Berlin" });
    const berlin = new Cron("0 3 * * *", { ...cronZone("Europe/Berlin"), paused: true });
    expect(berlin.nextRun(new Date("2026-07-01T00:00:00Z"))?.toISOString()).toBe("2026-07-01T01:00:00.000Z");
  });

  it("checks expressions the same in UTC as before", () => {
    expect(cronProblem("0 3 * * *", "UTC")).toBeNull();
    expect(cronProblem("0 3 * *", "UTC")).toMatch(/has 4 fields/);
    expect(cronProblem("* 3 * * *", "UTC")).toMatch(/more often than hourly/);
    expect(cronProblem("0 25 * * *", "UTC")).toMatch(/must be a cron expression/);
  });
});
