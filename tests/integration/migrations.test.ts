import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDb, migrateToLatest } from "../../server/db/db.server";
import { freshDb } from "../helpers/db";
import { grantAdmin, revokeAdmin, rolesOf } from "../../server/auth/users.server";

const TABLES = [
  "users",
  "admin_users",
  "sessions",
  "templates",
  "purchases",
  "download_logs",
  "bookings",
  "booking_drafts",
  "email_outbox",
  "calendar_sources",
];

describe("migrations", () => {
  it("create every table on an empty file and are idempotent", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mig-"));
    const { db, sqlite } = createDb(path.join(dir, "app.db"));
    const first = await migrateToLatest(db);
    expect(first.results?.every((r) => r.status === "Success")).toBe(true);
    const second = await migrateToLatest(db);
    expect(second.results).toEqual([]);
    const names = (sqlite.prepare("select name from sqlite_master where type='table'").all() as { name: string }[]).map(
      (r) => r.name,
    );
    for (const t of TABLES) expect(names).toContain(t);
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    await db.destroy();
  });

  it("enforce the rules the spec implies", async () => {
    const t = await freshDb();
    const base = {
      name: "A",
      tagline: "t",
      description: "d",
      category: "saas" as const,
      price: 5900,
      original_price: null,
      image_url: null,
      file_url: null,
    };
    await t.db
      .insertInto("templates")
      .values({ ...base, id: "t1", slug: "a" })
      .execute();
    await expect(
      t.db
        .insertInto("templates")
        .values({ ...base, id: "t2", slug: "a" })
        .execute(),
    ).rejects.toThrow(/UNIQUE/);
    await expect(
      t.db
        .insertInto("templates")
        .values({ ...base, id: "t3", slug: "b", category: "games" as unknown as "saas" })
        .execute(),
    ).rejects.toThrow(/CHECK/);
    await t.db.insertInto("users").values({ id: "u1", email: "a@example.com", full_name: null }).execute();
    await t.db
      .insertInto("purchases")
      .values({
        id: "p1",
        user_id: "u1",
        template_id: "t1",
        amount_paid: 5900,
        license_key: "K1",
        stripe_session_id: null,
      })
      .execute();
    await expect(
      t.db
        .insertInto("purchases")
        .values({
          id: "p2",
          user_id: "u1",
          template_id: "t1",
          amount_paid: 5900,
          license_key: "K2",
          stripe_session_id: null,
        })
        .execute(),
    ).rejects.toThrow(/UNIQUE/);
    await expect(
      sql`insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, status)
          values ('b1','a@example.com','A','C','essentials',250000,250000,'archived')`.execute(t.db),
    ).rejects.toThrow(/CHECK/);
    await expect(
      t.db.insertInto("download_logs").values({ purchase_id: "nope", user_id: "u1", template_id: "t1" }).execute(),
    ).rejects.toThrow(/FOREIGN KEY/);
    await t.close();
  });

  it("have an index for every read of the spec", async () => {
    const t = await freshDb();
    const plan = async (q: string) =>
      (await sql.raw(`explain query plan ${q}`).execute(t.db)).rows
        .map((r) => (r as { detail: string }).detail)
        .join(" | ");
    expect(await plan("select * from templates where featured = 1 order by created_at desc limit 4")).toMatch(
      /USING INDEX/,
    );
    expect(await plan("select * from templates order by created_at desc")).toMatch(/USING INDEX|SCAN templates USING/);
    expect(await plan("select * from templates where category = 'saas' and id != 'x' limit 3")).toMatch(/USING INDEX/);
    expect(await plan("select * from purchases where user_id = 'u' and template_id = 't'")).toMatch(/USING INDEX/);
    expect(await plan("select id from download_logs where purchase_id = 'p'")).toMatch(/USING (COVERING )?INDEX/);
    expect(await plan("select * from bookings where status = 'pending' order by created_at desc limit 5")).toMatch(
      /USING INDEX/,
    );
    await t.close();
  });
});

describe("admin bootstrap", () => {
  it("grants, upgrades and revokes admin rights, creating the user", async () => {
    const t = await freshDb();
    const user = await grantAdmin(t.db, "Boss@Example.com");
    expect(user.email).toBe("boss@example.com");
    expect(await rolesOf(t.db, user.id)).toEqual({ isAdmin: true, isSuperAdmin: false });
    await grantAdmin(t.db, "boss@example.com", { superAdmin: true });
    expect(await rolesOf(t.db, user.id)).toEqual({ isAdmin: true, isSuperAdmin: true });
    expect(await revokeAdmin(t.db, "boss@example.com")).toBe(true);
    expect(await rolesOf(t.db, user.id)).toEqual({ isAdmin: false, isSuperAdmin: false });
    expect(await revokeAdmin(t.db, "nobody@example.com")).toBe(false);
    await t.close();
  });
});
