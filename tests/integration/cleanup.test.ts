import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanupExpired, describeCleanup } from "../../server/db/cleanup.server";
import { createStorage } from "../../server/storage/storage.server";
import { freshDb, type TestDb } from "../helpers/db";

const NOW = new Date("2026-06-15T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let t: TestDb;
afterEach(async () => {
  await t?.close();
});

async function ids(table: "sessions" | "booking_drafts") {
  return (await t.db.selectFrom(table).select("id").orderBy("id").execute()).map((r) => r.id);
}

describe("cleanupExpired(db, now)", () => {
  it("removes expired sessions and keeps live ones", async () => {
    t = await freshDb();
    await t.db
      .insertInto("sessions")
      .values([
        { id: "expired", user_id: null, data: "{}", expires_at: ago(MIN) },
        { id: "expires-now", user_id: null, data: "{}", expires_at: NOW.toISOString() },
        { id: "live", user_id: null, data: "{}", expires_at: ago(-5 * MIN) },
      ])
      .execute();
    const r = await cleanupExpired(t.db, NOW);
    expect(r.sessions).toBe(2);
    expect(await ids("sessions")).toEqual(["live"]);
  });

  it("removes drafts older than their cookie and empty drafts a day after their last change; keeps the rest", async () => {
    t = await freshDb();
    const draft = (
      id: string,
      created: number,
      updated: number,
      completed: number[],
      confirmed: string | null = null,
    ) => ({
      id,
      booking_id: `b-${id}`,
      data: JSON.stringify({ state: completed.length ? { name: "Ada" } : {}, completed }),
      created_at: ago(created),
      updated_at: ago(updated),
      confirmed_at: confirmed,
    });
    await t.db
      .insertInto("booking_drafts")
      .values([
        draft("a-31-days", 31 * DAY, 2 * DAY, [1, 2, 3]),
        draft("b-31-days-confirmed", 31 * DAY, 31 * DAY, [1, 2, 3, 4], ago(31 * DAY)),
        draft("c-empty-2-days", 2 * DAY, 2 * DAY, []),
        draft("d-empty-1-hour", HOUR, HOUR, []),
        draft("e-started-20-days", 20 * DAY, 20 * DAY, [1]),
        draft("f-confirmed-10-days", 10 * DAY, 10 * DAY, [1, 2, 3, 4], ago(10 * DAY)),
        { ...draft("g-corrupt-2-days", 2 * DAY, 2 * DAY, []), data: "{not json" },
      ])
      .execute();
    const r = await cleanupExpired(t.db, NOW);
    expect(r.drafts).toBe(4);
    expect(await ids("booking_drafts")).toEqual(["d-empty-1-hour", "e-started-20-days", "f-confirmed-10-days"]);
  });

  it("removes the files of an expired draft that never became a booking, and keeps a booking's files", async () => {
    t = await freshDb();
    const storage = createStorage(t.dataDir);
    const put = (rel: string) => storage.put("booking-files", rel, Buffer.from("x"));
    put("bookings/b-abandoned/1-logo.png");
    put("bookings/b-booked/1-brief.pdf");
    const files = (rel: string) => JSON.stringify([{ name: path.basename(rel), size: 1, path: rel }]);
    await t.db
      .insertInto("booking_drafts")
      .values([
        {
          id: "abandoned",
          booking_id: "b-abandoned",
          data: '{"state":{},"completed":[1,2,3,4]}',
          uploaded_files: files("bookings/b-abandoned/1-logo.png"),
          created_at: ago(31 * DAY),
          updated_at: ago(25 * DAY),
        },
        // Confirmed but its flag never written (a crash between the two): the booking row owns the files.
        {
          id: "booked",
          booking_id: "b-booked",
          data: '{"state":{},"completed":[1,2,3,4]}',
          uploaded_files: files("bookings/b-booked/1-brief.pdf"),
          created_at: ago(31 * DAY),
          updated_at: ago(25 * DAY),
        },
      ])
      .execute();
    await t.db
      .insertInto("bookings")
      .values({
        id: "b-booked",
        user_id: null,
        email: "ada@example.com",
        full_name: "Ada",
        company_name: "Engines",
        phone: null,
        package_type: "essentials",
        package_price: 250000,
        total_amount: 250000,
        website_url: null,
        desired_start_date: null,
        source: null,
      })
      .execute();
    const r = await cleanupExpired(t.db, NOW, { storage });
    expect(r).toMatchObject({ drafts: 2, files: 1 });
    const bucket = path.join(t.dataDir, "storage", "booking-files", "bookings");
    expect(fs.existsSync(path.join(bucket, "b-abandoned"))).toBe(false);
    expect(fs.existsSync(path.join(bucket, "b-booked", "1-brief.pdf"))).toBe(true);
  });

  it("removes sign-in tokens issued more than an hour ago (spent or expired) and keeps the hour the limits count", async () => {
    t = await freshDb();
    const token = (hash: string, issued: number, used: boolean) => ({
      token_hash: hash,
      email: "ada@example.com",
      client_key: "c",
      redirect_to: null,
      created_at: ago(issued),
      expires_at: ago(issued - 10 * MIN),
      used_at: used ? ago(issued - MIN) : null,
    });
    await t.db
      .insertInto("auth_tokens")
      .values([
        token("old-spent", 2 * HOUR, true),
        token("old-expired", 3 * DAY, false),
        token("spent-recently", 30 * MIN, true),
        token("expired-recently", 50 * MIN, false),
        token("live", MIN, false),
      ])
      .execute();
    const r = await cleanupExpired(t.db, NOW);
    expect(r.tokens).toBe(2);
    const left = (await t.db.selectFrom("auth_tokens").select("token_hash").orderBy("token_hash").execute()).map(
      (x) => x.token_hash,
    );
    expect(left).toEqual(["expired-recently", "live", "spent-recently"]);
  });

  it("works through a backlog in batches and stops between batches when asked", async () => {
    t = await freshDb();
    const rows = Array.from({ length: 1234 }, (_, i) => ({
      id: `s${i}`,
      user_id: null,
      data: "{}",
      expires_at: ago(DAY),
    }));
    for (let i = 0; i < rows.length; i += 400)
      await t.db
        .insertInto("sessions")
        .values(rows.slice(i, i + 400))
        .execute();
    expect((await cleanupExpired(t.db, NOW, { batchSize: 100 })).sessions).toBe(1234);
    await t.db.insertInto("sessions").values(rows.slice(0, 300)).execute();
    const abort = new AbortController();
    abort.abort();
    expect((await cleanupExpired(t.db, NOW, { batchSize: 100, signal: abort.signal })).sessions).toBe(0);
  });

  it("says what it removed, and nothing when it removed nothing", () => {
    expect(describeCleanup({ sessions: 0, drafts: 0, tokens: 0, files: 0, uploads: 0 })).toBeNull();
    expect(describeCleanup({ sessions: 3, drafts: 2, tokens: 1, files: 1, uploads: 0 })).toBe(
      "[cleanup] removed 3 expired sessions, 2 expired booking drafts (1 files), 1 old sign-in tokens",
    );
    expect(describeCleanup({ sessions: 0, drafts: 0, tokens: 0, files: 0, uploads: 2 })).toBe(
      "[cleanup] removed 0 expired sessions, 0 expired booking drafts (0 files), 0 old sign-in tokens, 2 unfinished uploads",
    );
  });

  it("removes upload temporary files a crash left behind (untouched for an hour) and keeps uploads in progress", async () => {
    t = await freshDb();
    const storage = createStorage(t.dataDir);
    fs.mkdirSync(storage.uploadTmpDir, { recursive: true });
    const dead = path.join(storage.uploadTmpDir, "upload-dead");
    const live = path.join(storage.uploadTmpDir, "upload-live");
    fs.writeFileSync(dead, "x");
    fs.writeFileSync(live, "x");
    fs.utimesSync(dead, new Date(NOW.getTime() - 2 * HOUR), new Date(NOW.getTime() - 2 * HOUR));
    fs.utimesSync(live, new Date(NOW.getTime() - 5 * MIN), new Date(NOW.getTime() - 5 * MIN));
    const r = await cleanupExpired(t.db, NOW, { storage });
    expect(r.uploads).toBe(1);
    expect(fs.readdirSync(storage.uploadTmpDir)).toEqual(["upload-live"]);
  });
});
