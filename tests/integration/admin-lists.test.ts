/**
 * The console's lists at the size a busy studio reaches (issue 19.5): bookings and purchases paged
 * on the server, 25 a page, searched and filtered, each query fast with 5,000 bookings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGE_SIZE, adminBookings, adminPurchases } from "../../server/admin/admin.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { env } from "../../server/env.server";
import { freshDb, type TestDb } from "../helpers/db";

const STATUSES = ["pending", "contacted", "in_progress", "completed", "cancelled"] as const;
let t: TestDb;

beforeAll(async () => {
  t = await freshDb();
  await seedDemoCatalogue(t.db, t.dataDir);
  const rows = Array.from({ length: 5000 }, (_, i) => ({
    id: `b-${String(i).padStart(5, "0")}`,
    user_id: null,
    email: i === 4242 ? "needle@haystack.example" : `client${i}@example.com`,
    full_name: i === 1234 ? "Ada 100% Lovelace" : `Client ${i}`,
    company_name: i === 777 ? "Under_score Ltd" : `Company ${i}`,
    phone: null,
    package_type: "growth" as const,
    package_price: 850000,
    total_amount: 850000,
    website_url: null,
    desired_start_date: "2027-01-01",
    source: null,
    status: STATUSES[i % STATUSES.length],
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 500)
    await t.db
      .insertInto("bookings")
      .values(rows.slice(i, i + 500))
      .execute();
  const user = await t.db
    .insertInto("users")
    .values({ id: "u-1", email: "buyer@example.com" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const templates = await t.db.selectFrom("templates").select(["id", "name"]).execute();
  await t.db
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
});
afterAll(async () => {
  await t?.close();
});

/** Runs `fn` a few times and answers the fastest run in ms (the first warms the statement cache). */
async function fastest(fn: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe("bookings", () => {
  it("are paged 25 at a time, newest first, with the total and the page count", async () => {
    const first = await adminBookings(t.db, env());
    expect(first).toMatchObject({ total: 5000, page: 1, pages: 200, pageSize: ADMIN_PAGE_SIZE });
    expect(first.rows).toHaveLength(25);
    expect(first.rows[0].id).toBe("b-04999");
    const last = await adminBookings(t.db, env(), { page: 200 });
    expect(last.rows.at(-1)?.id).toBe("b-00000");
    // A page past the end shows the last one.
    expect((await adminBookings(t.db, env(), { page: 9999 })).page).toBe(200);
  });

  it("are searched by name, email and company, wildcards taken literally; filtered by status", async () => {
    expect((await adminBookings(t.db, env(), { q: "needle@" })).rows.map((b) => b.id)).toEqual(["b-04242"]);
    expect((await adminBookings(t.db, env(), { q: "100%" })).rows.map((b) => b.id)).toEqual(["b-01234"]);
    expect((await adminBookings(t.db, env(), { q: "under_score" })).rows.map((b) => b.id)).toEqual(["b-00777"]);
    expect((await adminBookings(t.db, env(), { q: "Company 4999" })).total).toBe(1);
    const pending = await adminBookings(t.db, env(), { status: "pending" });
    expect(pending.total).toBe(1000);
    expect(pending.rows.every((b) => b.status === "pending")).toBe(true);
    expect(
      (await adminBookings(t.db, env(), { status: "contacted", q: "Client 1" })).rows.every(
        (b) => b.status === "contacted" && b.fullName.startsWith("Client 1"),
      ),
    ).toBe(true);
  });

  it("each list query takes under 20 ms with 5,000 bookings", async () => {
    const timings = {
      first: await fastest(() => adminBookings(t.db, env())),
      last: await fastest(() => adminBookings(t.db, env(), { page: 200 })),
      status: await fastest(() => adminBookings(t.db, env(), { status: "completed", page: 20 })),
      search: await fastest(() => adminBookings(t.db, env(), { q: "client4" })),
      both: await fastest(() => adminBookings(t.db, env(), { q: "Company", status: "pending", page: 3 })),
    };
    console.log(
      "[admin-lists] fastest of five, ms:",
      JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Number(v.toFixed(2))]))),
    );
    for (const [name, ms] of Object.entries(timings)) expect(ms, name).toBeLessThan(20);
  });
});

describe("purchases", () => {
  it("are paged and searched by buyer email, template name and license key", async () => {
    const all = await adminPurchases(t.db);
    expect(all.total).toBeGreaterThanOrEqual(10);
    expect((await adminPurchases(t.db, { q: "KEY3AAAA" })).rows.map((p) => p.id)).toEqual(["p-3"]);
    expect((await adminPurchases(t.db, { q: "atelier" })).rows.map((p) => p.templateName)).toEqual(["Atelier"]);
    expect((await adminPurchases(t.db, { q: "buyer@" })).total).toBe(all.total);
    expect(await fastest(() => adminPurchases(t.db, { q: "KEY" }))).toBeLessThan(20);
  });
});
