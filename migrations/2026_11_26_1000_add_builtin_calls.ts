import { sql, type Kysely } from "kysely";

/**
 * Calls booked in the studio's own calendar (issue 43.5): a booking's call says which calendar it
 * came from (`meeting_provider`: 'builtin', or 'calendly' for one read from Calendly; null before
 * this), and a built-in call that is scheduled holds its start alone: the unique index is the last
 * guard behind the confirm's check of the slot, so of two visitors confirming one time, one gets it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("bookings")
    .addColumn("meeting_provider", "text", (c) => c.check(sql`meeting_provider in ('builtin', 'calendly')`))
    .execute();
  await sql`update bookings set meeting_provider = 'calendly' where calendly_invitee_uri is not null`.execute(db);
  await sql`create unique index bookings_builtin_call_start on bookings (meeting_start_at)
    where meeting_provider = 'builtin' and meeting_status = 'scheduled'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_builtin_call_start`.execute(db);
  await db.schema.alterTable("bookings").dropColumn("meeting_provider").execute();
}
