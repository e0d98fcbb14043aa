/**
 * The console's lists at the size a busy studio reaches (issue 19.5): bookings and purchases paged
 * on the server, 25 a page, searched and filtered, each query read in index order with 5,000 bookings.
 */
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, type CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGE_SIZE } from "../../server/admin/lists";
import { adminBookings } from "../../server/admin/bookings.server";
import { adminPurchases } from "../../server/admin/purchases.server";
import type { DB } from "../../server/db/db.server";
import type { Database } from "../../server/db/schema";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { env } from "../../server/env.server";
import { BOOKING_STATUSES as STATUSES, bookingRows } from "../helpers/bookings";
import { freshDb, type TestDb } from "../helpers/db";

let t: TestDb;

beforeAll(async () => {
  t = await freshDb();
  await seedDemoCatalogue(t.db, t.dataDir);
  const rows = bookingRows(5000, (i) => ({
    ...(i === 4242 ? { email: "needle@haystack.example" } : {}),
    ...(i === 1234 ? { full_name: "Ada 100% Lovelace" } : {}),
    ...(i === 777 ? { company_name: "Under_score Ltd" } : {}),
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

/**
 * SQLite's plan (EXPLAIN QUERY PLAN, one line per step) of every query `list` sends to the
 * database, read on a second connection to the same file.
 */
async function plansOf(list: (db: DB) => Promise<unknown>): Promise<string[][]> {
  const sqlite = new SQLite(t.file);
  const sent: CompiledQuery[] = [];
  const db: DB = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => void sent.push(event.query),
  });
  try {
    await list(db);
    return sent.map((q) =>
      (sqlite.prepare(`explain query plan ${q.sql}`).all(...q.parameters) as { detail: string }[]).map((r) => r.detail),
    );
  } finally {
    await db.destroy();
  }
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

  it("each list query reads in index order (no sort of the bookings), a status through its index", async () => {
    const views = {
      first: {},
      last: { page: 200 },
      status: { status: "completed", page: 20 },
      search: { q: "client4" },
      both: { q: "Company", status: "pending", page: 3 },
    } as const;
    // What kept each under 20 ms with 5,000 bookings: a page is read in the order of an index and
    // stops after its 25 rows (no temporary B-tree sorting every match), and a status is looked up
    // in bookings_status_created rather than checked row by row. A search (LIKE '%q%') reads every
    // row by nature, still in index order. The times themselves are for a benchmark, not a test.
    const byStatus = /^SEARCH bookings USING (COVERING )?INDEX bookings_status_created \(status=\?\)$/;
    for (const [name, view] of Object.entries(views)) {
      const [count, page, ...more] = await plansOf((db) => adminBookings(db, env(), view));
      expect(more, name).toEqual([]);
      expect(
        [...count, ...page].filter((step) => step.includes("TEMP B-TREE")),
        name,
      ).toEqual([]);
      if ("status" in view)
        expect([...count, ...page], name).toEqual([expect.stringMatching(byStatus), expect.stringMatching(byStatus)]);
      else expect(page, name).toEqual(["SCAN bookings USING INDEX bookings_created_at"]);
    }
  });
});

describe("purchases", () => {
  it("are paged and searched by buyer email, template name and license key", async () => {
    const all = await adminPurchases(t.db);
    expect(all.total).toBeGreaterThanOrEqual(10);
    expect((await adminPurchases(t.db, { q: "KEY3AAAA" })).rows.map((p) => p.id)).toEqual(["p-3"]);
    expect((await adminPurchases(t.db, { q: "atelier" })).rows.map((p) => p.templateName)).toEqual(["Atelier"]);
    expect((await adminPurchases(t.db, { q: "buyer@" })).total).toBe(all.total);
    // Read newest first through purchases_created_at, each row's template and buyer by key, and its
    // ledger payment and refunds (issue 31) through payments_purchase: no sort.
    const [count, page] = await plansOf((db) => adminPurchases(db, { q: "KEY" }));
    expect([...count, ...page].filter((step) => step.includes("TEMP B-TREE"))).toEqual([]);
    expect(page).toEqual([
      "SCAN p USING INDEX purchases_created_at",
      expect.stringMatching(/^SEARCH t USING INDEX \S+ \(id=\?\)$/),
      expect.stringMatching(/^SEARCH u USING INDEX \S+ \(id=\?\)$/),
      "CORRELATED SCALAR SUBQUERY 1",
      "SEARCH pay USING INDEX payments_purchase (purchase_id=?)",
      "CORRELATED SCALAR SUBQUERY 2",
      "SEARCH ref USING INDEX payments_purchase (purchase_id=?)",
    ]);
  });
});
