import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index";
import { createDb } from "../../server/db/db.server";

// Issue 18: the migration that gives bookings their call rebuilds the outbox; nothing is lost.
describe("2026_11_23_1210_add_meetings_to_bookings", () => {
  it("keeps every outbox message with its id and status, adds the new columns, and goes down again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mig-meet-"));
    const { db, sqlite } = createDb(path.join(dir, "app.db"));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("2026_11_23_1200_create_stripe_revocations")).error).toBeUndefined();
    await sql`insert into email_outbox (id, to_email, subject, text_body, html_body, status, attempts, next_attempt_at, sent_at) values
      (7, 'a@example.com', 'Sent', 't', 'h', 'sent', 1, null, '2026-11-01T00:00:00.000Z'),
      (9, 'b@example.com', 'Waiting', 't', 'h', 'pending', 2, '2026-11-02T00:00:00.000Z', null)`.execute(db);
    await sql`insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount) values ('b1', 'c@example.com', 'C', 'Co', 'growth', 850000, 850000)`.execute(
      db,
    );

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db.selectFrom("email_outbox").selectAll().orderBy("id").execute();
    expect(
      rows.map((r) => [
        r.id,
        r.subject,
        r.status,
        r.attempts,
        r.next_attempt_at,
        r.kind,
        r.booking_id,
        r.attachments,
        r.expires_at,
      ]),
    ).toEqual([
      [7, "Sent", "sent", 1, null, "message", null, null, null],
      [9, "Waiting", "pending", 2, "2026-11-02T00:00:00.000Z", "message", null, null, null],
    ]);
    // Ids go on after the copied ones; the new status and kinds are allowed, others are not.
    const next = await db
      .insertInto("email_outbox")
      .values({
        to_email: "d@example.com",
        subject: "s",
        text_body: "t",
        html_body: "h",
        error: null,
        sent_at: null,
        next_attempt_at: null,
        status: "cancelled",
        kind: "reminder_1h",
        booking_id: "b1",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(next.id).toBe(10);
    await expect(
      sql`insert into email_outbox (to_email, subject, text_body, html_body, kind) values ('x', 's', 't', 'h', 'reminder_2h')`.execute(
        db,
      ),
    ).rejects.toThrow(/CHECK/);
    await expect(sql`update bookings set meeting_status = 'moved' where id = 'b1'`.execute(db)).rejects.toThrow(
      /CHECK/,
    );
    const b = await db.selectFrom("bookings").selectAll().where("id", "=", "b1").executeTakeFirstOrThrow();
    expect(b).toMatchObject({
      meeting_status: null,
      meeting_start_at: null,
      meeting_sequence: 0,
      meeting_fetch_attempts: 0,
      utm_source: null,
      referrer: null,
    });
    // A reminder goes with its booking.
    await db.deleteFrom("bookings").where("id", "=", "b1").execute();
    expect(await db.selectFrom("email_outbox").select("id").where("id", "=", 10).execute()).toEqual([]);
    expect(sqlite.pragma("foreign_key_check")).toEqual([]);

    expect((await migrator.migrateTo("2026_11_23_1200_create_stripe_revocations")).error).toBeUndefined();
    const back = (
      await sql<{ id: number; status: string }>`select id, status from email_outbox order by id`.execute(db)
    ).rows;
    expect(back).toEqual([
      { id: 7, status: "sent" },
      { id: 9, status: "pending" },
    ]);
    await db.destroy();
  });
});
