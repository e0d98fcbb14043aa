import { sql, type Kysely } from "kysely";

/**
 * The owner's calendars the built-in calendar reads busy times from (issue 43.3): an ICS feed (the
 * secret iCal address) or a CalDAV calendar (URL, user, app password). Each keeps its last known
 * busy times (`busy`, JSON `[[start, end], ...]` in epoch milliseconds), the validators of its last
 * answer (ETag, Last-Modified) for a conditional request, when it last synced, and its last error
 * while it fails: a source that fails keeps offering its last known busy times, never "all free".
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema
    .createTable("calendar_sources")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("username", "text")
    .addColumn("password", "text")
    .addColumn("etag", "text")
    .addColumn("last_modified", "text")
    .addColumn("busy", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("synced_at", "text")
    .addColumn("error", "text")
    .addColumn("error_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint("calendar_sources_kind", sql`kind in ('ics', 'caldav')`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("calendar_sources").ifExists().execute();
}
