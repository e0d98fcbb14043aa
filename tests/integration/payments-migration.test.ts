import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index";
import { createDb } from "../../server/db/db.server";

// Issue 31: existing bookings get the default plan with their recorded payments applied in order;
// existing purchases (and full refunds) enter the ledger; nothing is lost, and it goes down again.
describe("2026_11_25_1200_create_payment_plans", () => {
  it("plans existing bookings, moves their payments and the shop's sales into the ledger", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mig-payments-"));
    const { db } = createDb(path.join(dir, "app.db"));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("2026_11_25_0900_create_studio_settings")).error).toBeUndefined();
    const history = JSON.stringify([
      { amount: 170000, date: "2026-11-02T10:00:00.000Z", note: "deposit" },
      { amount: 100000, date: "2026-11-10T10:00:00.000Z" },
    ]);
    await sql`insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, amount_paid, payment_status, payment_history, desired_start_date)
      values ('b1', 'a@x.example', 'Ada', 'Labs', 'growth', 850000, 850000, 270000, 'partial', ${history}, '2027-01-01'),
             ('b0', 'z@x.example', 'Zed', 'Zero', 'custom', 0, 0, 0, 'unpaid', '[]', '2027-01-01')`.execute(db);
    await sql`insert into users (id, email) values ('u1', 'buyer@x.example')`.execute(db);
    await sql`insert into templates (id, slug, name, tagline, description, category, price) values ('t1', 'a', 'Atelier', 't', 'd', 'saas', 5900)`.execute(
      db,
    );
    await sql`insert into purchases (id, user_id, template_id, amount_paid, license_key, stripe_session_id, status, created_at, stripe_payment_intent)
      values ('p1', 'u1', 't1', 5900, 'K1', 'cs_1', 'refunded', '2026-11-01T00:00:00.000Z', 'pi_1')`.execute(db);
    await sql`insert into stripe_revocations (stripe_id, kind, reason, stripe_event_id, created_at) values ('pi_1', 'payment_intent', 'refunded', 'evt_1', '2026-11-03T00:00:00.000Z')`.execute(
      db,
    );

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const stages = await db
      .selectFrom("booking_stages")
      .select(["booking_id", "label", "amount", "paid_at"])
      .orderBy("booking_id")
      .orderBy("position")
      .execute();
    expect(stages).toEqual([
      { booking_id: "b1", label: "Deposit", amount: 170000, paid_at: "2026-11-02T10:00:00.000Z" },
      { booking_id: "b1", label: "Design approval", amount: 425000, paid_at: null },
      { booking_id: "b1", label: "Final delivery", amount: 255000, paid_at: null },
    ]);
    const ledger = await db
      .selectFrom("payments")
      .select(["kind", "amount", "method", "booking_id", "purchase_id", "note", "occurred_at"])
      .orderBy("occurred_at")
      .execute();
    expect(ledger).toEqual([
      expect.objectContaining({ kind: "payment", amount: 5900, method: "card", purchase_id: "p1" }),
      expect.objectContaining({ kind: "payment", amount: 170000, method: "other", booking_id: "b1", note: "deposit" }),
      expect.objectContaining({
        kind: "refund",
        amount: 5900,
        purchase_id: "p1",
        occurred_at: "2026-11-03T00:00:00.000Z",
      }),
      expect.objectContaining({ kind: "payment", amount: 100000, booking_id: "b1" }),
    ]);
    // Down to before it (and any migration after it).
    expect((await migrator.migrateTo("2026_11_25_0900_create_studio_settings")).error).toBeUndefined();
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    expect(tables.rows.map((r) => r.name)).not.toContain("payments");
    await db.destroy();
  });
});
