import { sql, type Kysely } from "kysely";

/**
 * Issue 18 (decision 014): a booking knows its call.
 * - `bookings` gains the meeting read from Calendly (event and invitee URIs, start and end in UTC,
 *   the invitee's time zone, join / cancel / reschedule links, status and a sequence for the .ics),
 *   the state of fetching it (attempts, next try, last error), and where the visit came from
 *   (first-touch `utm_*` and referrer).
 * - `email_outbox` is rebuilt (SQLite cannot change a CHECK constraint in place) with a
 *   `cancelled` status, `attachments` (JSON), the `booking_id` and `kind` of a reminder, and
 *   `expires_at`, after which a message is no longer worth sending. Rows are copied with their ids.
 * - `calendly_webhook_events` records each processed webhook by id, so a replay changes nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  for (const column of [
    "calendly_event_uri",
    "calendly_invitee_uri",
    "meeting_start_at",
    "meeting_end_at",
    "invitee_timezone",
    "meeting_join_url",
    "meeting_cancel_url",
    "meeting_reschedule_url",
    "meeting_updated_at",
    "meeting_fetch_next_at",
    "meeting_fetch_error",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "referrer",
  ]) {
    await db.schema.alterTable("bookings").addColumn(column, "text").execute();
  }
  await db.schema
    .alterTable("bookings")
    .addColumn("meeting_status", "text", (c) => c.check(sql`meeting_status in ('scheduled','cancelled','rescheduled')`))
    .execute();
  await db.schema.alterTable("bookings").addColumn("meeting_sequence", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("bookings").addColumn("meeting_fetch_attempts", "integer", (c) => c.notNull().defaultTo(0)).execute();
  // One booking per Calendly invitee: a URI sent by one browser can never attach to a second booking.
  await sql`create unique index bookings_calendly_invitee on bookings (calendly_invitee_uri) where calendly_invitee_uri is not null`.execute(db);
  await sql`create index bookings_calendly_event on bookings (calendly_event_uri) where calendly_event_uri is not null`.execute(db);
  await sql`create index bookings_meeting_fetch on bookings (meeting_fetch_next_at) where meeting_fetch_next_at is not null`.execute(db);
  await db.schema.createIndex("bookings_meeting_start").on("bookings").columns(["meeting_status", "meeting_start_at"]).execute();
  await db.schema.createIndex("bookings_email").on("bookings").columns(["email", "created_at"]).execute();

  await db.schema
    .createTable("email_outbox_next")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("to_email", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("sent_at", "text")
    .addColumn("attachments", "text")
    .addColumn("booking_id", "text", (c) => c.references("bookings.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("message"))
    .addColumn("expires_at", "text")
    .addCheckConstraint("email_outbox_status", sql`status in ('pending','sent','logged','failed','cancelled')`)
    .addCheckConstraint("email_outbox_kind", sql`kind in ('message','reminder_24h','reminder_1h')`)
    .execute();
  await sql`insert into email_outbox_next (id, to_email, subject, text_body, html_body, status, error, attempts, next_attempt_at, created_at, sent_at)
    select id, to_email, subject, text_body, html_body, status, error, attempts, next_attempt_at, created_at, sent_at from email_outbox`.execute(db);
  await db.schema.dropTable("email_outbox").execute();
  await db.schema.alterTable("email_outbox_next").renameTo("email_outbox").execute();
  await db.schema.createIndex("email_outbox_status_next").on("email_outbox").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("email_outbox_to_email").on("email_outbox").columns(["to_email", "id"]).execute();
  await sql`create index email_outbox_booking on email_outbox (booking_id, kind) where booking_id is not null`.execute(db);

  await db.schema
    .createTable("calendly_webhook_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("invitee_uri", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("booking_id", "text", (c) => c.references("bookings.id").onDelete("set null"))
    .addColumn("meeting", "text")
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("calendly_webhook_events_email").on("calendly_webhook_events").columns(["email", "received_at"]).execute();
  await db.schema.createIndex("calendly_webhook_events_received").on("calendly_webhook_events").column("received_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("calendly_webhook_events").ifExists().execute();

  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema
    .createTable("email_outbox_prev")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("to_email", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("sent_at", "text")
    .addCheckConstraint("email_outbox_status", sql`status in ('pending','sent','logged','failed')`)
    .execute();
  await sql`insert into email_outbox_prev (id, to_email, subject, text_body, html_body, status, error, attempts, next_attempt_at, created_at, sent_at)
    select id, to_email, subject, text_body, html_body, case status when 'cancelled' then 'failed' else status end, error, attempts, next_attempt_at, created_at, sent_at
    from email_outbox`.execute(db);
  await db.schema.dropTable("email_outbox").execute();
  await db.schema.alterTable("email_outbox_prev").renameTo("email_outbox").execute();
  await db.schema.createIndex("email_outbox_status_next").on("email_outbox").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("email_outbox_to_email").on("email_outbox").columns(["to_email", "id"]).execute();

  for (const index of ["bookings_calendly_invitee", "bookings_calendly_event", "bookings_meeting_fetch", "bookings_meeting_start", "bookings_email"]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  for (const column of [
    "calendly_event_uri",
    "calendly_invitee_uri",
    "meeting_start_at",
    "meeting_end_at",
    "invitee_timezone",
    "meeting_join_url",
    "meeting_cancel_url",
    "meeting_reschedule_url",
    "meeting_updated_at",
    "meeting_fetch_next_at",
    "meeting_fetch_error",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "referrer",
    "meeting_status",
    "meeting_sequence",
    "meeting_fetch_attempts",
  ]) {
    await db.schema.alterTable("bookings").dropColumn(column).execute();
  }
}
