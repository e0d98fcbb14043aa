// The timings the tests no longer assert (decision 021), measured here for `npm run bench`, which
// bundles this file with esbuild, runs it and prints its figures:
// - the console's lists with 5,000 bookings, fastest of five runs of each view (issue 19.5 asked
//   for each under 20 ms; tests/integration/admin-lists.test.ts checks their query plans);
// - the rate limiter: 10,000 hits with 60,000 clients counted (tests/unit/rate-limit.test.ts
//   checks that no hit walks the others' windows).
// - a backup (issue 32) of 5,000 bookings and 200 MB of files: its time and size.
// - the built-in calendar's free slots (issue 43.10): 30 days against the busy times of three
//   calendars of 2,000 events each, the first run and the fastest of five (tests/unit/slots.test.ts
//   checks the slots themselves). The feeds' parsing and recurrence expansion are not in it yet.
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
import { freeSlots, type Interval } from "../../server/calendar/slots.server";
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

/** 30 days of free slots against 6,000 busy times: the first run and the fastest of five (ms). */
async function slotsFigure() {
  const HOUR = 3_600_000;
  const now = Date.parse("2027-06-07T07:00:00Z");
  const hours = [0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19, 20, 21, 22, 11];
  const busy: Interval[] = [];
  for (let i = 0; i < 6000; i++) {
    const start = Date.parse("2027-06-07T00:00:00Z") + (i % 31) * 24 * HOUR + hours[i % hours.length] * HOUR;
    busy.push({ start, end: start + 30 * 60_000 });
  }
  const availability = { ...defaultAvailability("Europe/London"), intervalMinutes: 15, noticeHours: 0 };
  let slots = 0;
  const started = performance.now();
  slots = freeSlots(availability, { now, busy, calls: [] }).length;
  const firstMs = +(performance.now() - started).toFixed(2);
  const fastestMs = await fastest(async () => freeSlots(availability, { now, busy, calls: [] }));
  return { slots, firstMs, fastestMs };
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
  `free slots, 30 days against 6,000 busy times: ${slots.slots} slots, first run ${slots.firstMs} ms, fastest of 5 ${slots.fastestMs} ms`,
);
console.log(
  JSON.stringify({
    adminListsMs: listMs,
    rateLimiter10kHitsMs: limiterMs,
    backup5kBookings200MB: backup,
    freeSlots30Days6kBusy: slots,
  }),
);
