// The timings the tests no longer assert (decision 021), measured here for `npm run bench`, which
// bundles this file with esbuild, runs it and prints its figures:
// - the console's lists with 5,000 bookings, fastest of five runs of each view (issue 19.5 asked
//   for each under 20 ms; tests/integration/admin-lists.test.ts checks their query plans);
// - the rate limiter: 10,000 hits with 60,000 clients counted (tests/unit/rate-limit.test.ts
//   checks that no hit walks the others' windows).
// - a backup (issue 32) of 5,000 bookings and 200 MB of files: its time and size.
// - the built-in calendar (issue 43.10): three feeds of 2,000 events each read into busy times, and
//   30 days of free slots read from the database as step 6 reads them (tests/unit/slots.test.ts
//   and tests/unit/ics-busy.test.ts check the slots and busy times themselves).
// Prints a line of each, then one JSON line.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { adminBookings } from "../../server/admin/bookings.server";
import { adminPurchases } from "../../server/admin/purchases.server";
import { createDb, migrateToLatest } from "../../server/db/db.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { createBackup } from "../../server/db/backup.server";
import { RateLimiter } from "../../server/rate-limit.server";
import { openSlots } from "../../server/calendar/calls.server";
import { busyFromIcs } from "../../server/calendar/ics-busy.server";
import { defaultAvailability } from "../../server/domain/availability";
import { BOOKING_STATUSES as STATUSES, bookingRows } from "../helpers/bookings";

const zone = { STUDIO_TIMEZONE: "UTC" };

async function fastest(fn: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await fn();
    best = Math.min(best, performance.now() - start);
  }
  return +best.toFixed(2);
}

async function lists() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-lists-"));
  const { db } = createDb(path.join(dir, "app.db"));
  try {
    await migrateToLatest(db);
    await seedDemoCatalogue(db, dir);
    const rows = bookingRows(5000, (i) => ({
      status: STATUSES[i % STATUSES.length],
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto("bookings")
        .values(rows.slice(i, i + 500))
        .execute();
    const user = await db
      .insertInto("users")
      .values({ id: "u-1", email: "buyer@example.com" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const templates = await db.selectFrom("templates").select("id").execute();
    await db
      .insertInto("purchases")
      .values(
        templates.map((tpl, i) => ({
          id: `p-${i}`,
          user_id: user.id,
          template_id: tpl.id,
          amount_paid: 5900,
          license_key: `KEY${i}AAAA-BBBBBBBB-CCCCCCCC-DDDDDDDD`,
          stripe_session_id: `cs_${i}`,
        })),
      )
      .execute();
    return {
      first: await fastest(() => adminBookings(db, zone)),
      last: await fastest(() => adminBookings(db, zone, { page: 200 })),
      status: await fastest(() => adminBookings(db, zone, { status: "completed", page: 20 })),
      search: await fastest(() => adminBookings(db, zone, { q: "client4" })),
      both: await fastest(() => adminBookings(db, zone, { q: "Company", status: "pending", page: 3 })),
      purchases: await fastest(() => adminPurchases(db, { q: "KEY" })),
    };
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function rateLimiter() {
  const l = new RateLimiter({ demo: { max: 3, windowSeconds: 60, message: "Slow down" } });
  for (let i = 0; i < 60_000; i++) await l.hit("demo", `client-${i}`);
  const start = performance.now();
  for (let i = 0; i < 10_000; i++) await l.hit("demo", `late-${i}`);
  return +(performance.now() - start).toFixed(1);
}

/** One backup of 5,000 bookings and 200 MB of files (random bytes, as pictures and archives are). */
async function backupFigure() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-backup-"));
  const { db } = createDb(path.join(dir, "app.db"));
  try {
    await migrateToLatest(db);
    const rows = bookingRows(5000, () => ({
      project_description: "A site that explains what we do, with case studies and a contact form. ".repeat(4),
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto("bookings")
        .values(rows.slice(i, i + 500))
        .execute();
    const files = path.join(dir, "storage", "booking-files");
    fs.mkdirSync(files, { recursive: true });
    for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(files, `file-${i}.bin`), crypto.randomBytes(1024 * 1024));
    const start = performance.now();
    const { file } = await createBackup(dir, { defaultDir: path.join(dir, "backups") });
    const seconds = +((performance.now() - start) / 1000).toFixed(2);
    return { seconds, megabytes: +(fs.statSync(file).size / 1048576).toFixed(1) };
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A feed of `events` events over three years, as a working calendar holds them (issue 43.10): a
 * quarter weekly series of twelve (the stand-up kind, some across the change of the clocks), the
 * rest single events at working hours, in Europe/London.
 */
function sampleFeed(seed: number, events: number): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN"];
  const pad = (n: number) => String(n).padStart(2, "0");
  for (let i = 0; i < events; i++) {
    const day = new Date(Date.UTC(2025, 0, 1) + ((i * 7 + seed * 3) % 1095) * 86_400_000);
    const hour = [9, 10, 11, 13, 14, 15, 16][(i + seed) % 7];
    const stamp = `${day.getUTCFullYear()}${pad(day.getUTCMonth() + 1)}${pad(day.getUTCDate())}T${pad(hour)}${i % 2 ? "30" : "00"}00`;
    lines.push(
      "BEGIN:VEVENT",
      `UID:bench-${seed}-${i}@example.com`,
      "DTSTAMP:20270101T000000Z",
      `DTSTART;TZID=Europe/London:${stamp}`,
      "DURATION:PT45M",
      `SUMMARY:Event ${i}`,
      ...(i % 4 === 0 ? ["RRULE:FREQ=WEEKLY;COUNT=12"] : []),
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.join("\r\n");
}

/**
 * The built-in calendar's time (issue 43.10), three calendars of 2,000 events each (a quarter of
 * them weekly series): reading the three feeds into busy times (what a sync does when every feed
 * changed), then a visitor's 30 days of free slots as step 6 reads them (the busy times and calls
 * from the database, then the slots). The first run and the fastest of five of each (ms).
 */
async function slotsFigure() {
  const now = Date.parse("2027-03-22T07:00:00Z");
  const feeds = [1, 2, 3].map((seed) => sampleFeed(seed, 2000));
  const window = { start: now - 86_400_000, end: now + 32 * 86_400_000 };
  const parse = () => feeds.map((text) => busyFromIcs(text, { window, timeZone: "Europe/London" }));
  let started = performance.now();
  const busy = parse();
  const parseFirstMs = +(performance.now() - started).toFixed(2);
  const parseFastestMs = await fastest(async () => parse());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-slots-"));
  const { db } = createDb(path.join(dir, "app.db"));
  try {
    await migrateToLatest(db);
    for (const [i, b] of busy.entries())
      await db
        .insertInto("calendar_sources")
        .values({
          id: `bench-${i}`,
          kind: "ics",
          label: `Calendar ${i + 1}`,
          url: "https://calendar.example/feed.ics",
          busy: JSON.stringify(b.map((x) => [x.start, x.end])),
        })
        .execute();
    const availability = { ...defaultAvailability("Europe/London"), intervalMinutes: 15, noticeHours: 0 };
    started = performance.now();
    const slots = (await openSlots(db, availability, now)).length;
    const slotsFirstMs = +(performance.now() - started).toFixed(2);
    const slotsFastestMs = await fastest(() => openSlots(db, availability, now));
    return {
      busyTimes: busy.reduce((n, b) => n + b.length, 0),
      slots,
      parseFirstMs,
      parseFastestMs,
      slotsFirstMs,
      slotsFastestMs,
      totalFirstMs: +(parseFirstMs + slotsFirstMs).toFixed(2),
    };
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const listMs = await lists();
console.log(
  `admin lists, 5,000 bookings (fastest of 5, ms): ${Object.entries(listMs)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ")}`,
);
const limiterMs = await rateLimiter();
console.log(`rate limiter: 10,000 hits with 60,000 clients counted in ${limiterMs} ms`);
const backup = await backupFigure();
console.log(
  `backup of 5,000 bookings and 200 MB of files: ${backup.seconds} s, ${backup.megabytes} MB (written, read back and checked)`,
);
const slots = await slotsFigure();
console.log(
  `built-in calendar, three calendars of 2,000 events each (${slots.busyTimes} busy times in the window): a visitor's 30 days of slots from the database (${slots.slots}) in ${slots.slotsFirstMs} ms, fastest of 5 ${slots.slotsFastestMs} ms (issue 43.10: at most 50); reading the three feeds (the 5-minute sync, not a request) ${slots.parseFirstMs} ms, fastest of 5 ${slots.parseFastestMs} ms`,
);
console.log(
  JSON.stringify({
    adminListsMs: listMs,
    rateLimiter10kHitsMs: limiterMs,
    backup5kBookings200MB: backup,
    calendar3Feeds6kEvents: slots,
  }),
);
