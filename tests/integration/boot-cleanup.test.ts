import { afterEach, describe, expect, it, vi } from "vitest";
import { boot, shutdown } from "../../server/boot.server";
import { db } from "../../server/db.server";
import { CLEANUP_INTERVAL_MS } from "../../server/db/cleanup.server";
import { migrateToLatest } from "../../server/db/db.server";
import { log as serverLog } from "../../server/log.server";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const sessionIds = async () =>
  (await db().selectFrom("sessions").select("id").orderBy("id").execute()).map((r) => r.id);
const expiredSession = (id: string) =>
  db()
    .insertInto("sessions")
    .values({ id, user_id: null, data: "{}", expires_at: new Date(Date.now() - 60_000).toISOString() })
    .execute();

/** Waits until `check` holds (the cleanup runs in the background). */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error("condition not met");
}

describe("the server's scheduled cleanup", () => {
  it("runs at boot and then every hour on timers that do not keep the process alive, and stops on shutdown", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const intervals: { ms: number | undefined; timer: NodeJS.Timeout }[] = [];
    const realSetInterval = globalThis.setInterval;
    vi.spyOn(globalThis, "setInterval").mockImplementation(((fn: () => void, ms?: number) => {
      const timer = realSetInterval(fn, ms);
      intervals.push({ ms, timer });
      return timer;
    }) as typeof setInterval);
    const log = vi.spyOn(serverLog, "info").mockImplementation(() => {});

    await migrateToLatest(db());
    await expiredSession("expired-before-boot");
    await boot();
    // The first run starts with the boot, in the background.
    await eventually(
      async () =>
        (await sessionIds()).length === 0 &&
        log.mock.calls.some(([line]) => String(line).startsWith("[cleanup] removed 1 expired sessions")),
    );
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));

    // An hour later the next run removes what expired since.
    await expiredSession("expired-after-boot");
    vi.advanceTimersByTime(CLEANUP_INTERVAL_MS - 1);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(await sessionIds()).toEqual(["expired-after-boot"]);
    vi.advanceTimersByTime(1);
    await eventually(async () => (await sessionIds()).length === 0);

    const cleanupTimer = intervals.find((i) => i.ms === CLEANUP_INTERVAL_MS);
    expect(cleanupTimer).toBeDefined();
    for (const { timer } of intervals) expect(timer.hasRef()).toBe(false);

    await shutdown();
    // After shutdown nothing runs: the hour passes and the (closed) database is not touched.
    const errors = vi.spyOn(serverLog, "error").mockImplementation(() => {});
    vi.advanceTimersByTime(CLEANUP_INTERVAL_MS);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(errors).not.toHaveBeenCalled();
  });
});
