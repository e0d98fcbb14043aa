import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index";
import { createDb } from "../../server/db/db.server";

// Issue 19.7: purchases are rebuilt to allow 'revoked'; no purchase or download log is lost.
describe("2026_11_23_1300_add_revoked_to_purchases", () => {
  it("keeps every purchase and its download logs, allows 'revoked', and goes down again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mig-revoke-"));
    const { db, sqlite } = createDb(path.join(dir, "app.db"));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("2026_11_23_1210_add_meetings_to_bookings")).error).toBeUndefined();
    await sql`insert into users (id, email) values ('u1', 'a@example.com')`.execute(db);
    await sql`insert into templates (id, slug, name, tagline, description, category, price) values ('t1', 'a', 'A', 't', 'd', 'saas', 5900), ('t2', 'b', 'B', 't', 'd', 'saas', 6900)`.execute(
      db,
    );
    await sql`insert into purchases (id, user_id, template_id, amount_paid, license_key, stripe_session_id, status, created_at, stripe_payment_intent) values
      ('p1', 'u1', 't1', 5900, 'K1', 'cs_1', 'active', '2026-11-01T00:00:00.000Z', 'pi_1'),
      ('p2', 'u1', 't2', 6900, 'K2', null, 'refunded', '2026-11-02T00:00:00.000Z', null)`.execute(db);
    await sql`insert into download_logs (purchase_id, user_id, template_id) values ('p1', 'u1', 't1'), ('p1', 'u1', 't1')`.execute(
      db,
    );

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db.selectFrom("purchases").selectAll().orderBy("id").execute();
    expect(
      rows.map((r) => [
        r.id,
        r.license_key,
        r.stripe_session_id,
        r.status,
        r.created_at,
        r.stripe_payment_intent,
        r.revoked_at,
      ]),
    ).toEqual([
      ["p1", "K1", "cs_1", "active", "2026-11-01T00:00:00.000Z", "pi_1", null],
      ["p2", "K2", null, "refunded", "2026-11-02T00:00:00.000Z", null, null],
    ]);
    expect(await db.selectFrom("download_logs").select("purchase_id").execute()).toEqual([
      { purchase_id: "p1" },
      { purchase_id: "p1" },
    ]);
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqlite.pragma("foreign_key_check")).toEqual([]);
    await db
      .updateTable("purchases")
      .set({ status: "revoked", revoked_at: "2026-11-03T00:00:00.000Z" })
      .where("id", "=", "p1")
      .execute();
    await expect(sql`update purchases set status = 'lost' where id = 'p1'`.execute(db)).rejects.toThrow(/CHECK/);
    await expect(
      sql`insert into purchases (id, user_id, template_id, amount_paid, license_key) values ('p3', 'u1', 't1', 1, 'K3')`.execute(
        db,
      ),
    ).rejects.toThrow(/UNIQUE/);
    // download_logs still references the rebuilt table: the cascade and the foreign key work.
    await expect(
      sql`insert into download_logs (purchase_id, user_id, template_id) values ('nope', 'u1', 't1')`.execute(db),
    ).rejects.toThrow(/FOREIGN KEY/);
    await db.deleteFrom("purchases").where("id", "=", "p1").execute();
    expect(await db.selectFrom("download_logs").select("purchase_id").execute()).toEqual([]);
    await sql`insert into purchases (id, user_id, template_id, amount_paid, license_key, status) values ('p1', 'u1', 't1', 5900, 'K1', 'revoked')`.execute(
      db,
    );

    expect((await migrator.migrateTo("2026_11_23_1210_add_meetings_to_bookings")).error).toBeUndefined();
    expect(
      (await sql<{ id: string; status: string }>`select id, status from purchases order by id`.execute(db)).rows,
    ).toEqual([
      { id: "p1", status: "refunded" },
      { id: "p2", status: "refunded" },
    ]);
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    await db.destroy();
  });
});
