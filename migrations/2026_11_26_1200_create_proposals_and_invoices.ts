import { sql, type Kysely } from "kysely";

/**
 * From call to contract (issue 44).
 *
 * - `proposals`: what the studio offers a client after the call, one row per version. Its content
 *   (scope, items, plan, terms: JSON) is frozen once sent; a revision is a new row with the next
 *   version and the old one `replaced`. The client's `/proposal/<token>` link names one version.
 *   Signing records the typed name, when, from where, and the SHA-256 of the document signed; the
 *   sealed PDF is kept in storage (`documents` bucket).
 * - `proposal_events`: the audit trail (sent, viewed, signed, countersigned, declined, expired,
 *   extended, replaced), append only: triggers refuse an update, and a delete while its proposal
 *   exists (a deleted booking takes its proposals and their trails with it).
 * - `invoices`: one per requested (or paid) stage, numbered `INV-YYYY-NNNN` in sequence per year;
 *   the studio, client, items and tax as they were when it was issued, so a later change to
 *   Settings or a deleted booking never changes an issued invoice. Never deleted.
 * - `document_counters`: the last number given per sequence (`invoice-2027`, `proposal`), taken
 *   in the same transaction as the row that carries it: no gap, never reused.
 * - `bookings.billing_address`: the client's address for proposals and invoices.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema
    .alterTable("bookings")
    .addColumn("billing_address", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("document_counters")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("last", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("proposals")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull().references("bookings.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('draft', 'sent', 'signed', 'declined', 'replaced')`),
    )
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("expires_on", "text", (c) => c.notNull())
    .addColumn("countersign", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("sent_at", "text")
    .addColumn("viewed_at", "text")
    .addColumn("signed_at", "text")
    .addColumn("signer_name", "text")
    .addColumn("document_sha256", "text")
    .addColumn("pdf_path", "text")
    .addColumn("declined_at", "text")
    .addColumn("decline_reason", "text")
    .addColumn("countersigned_at", "text")
    .addColumn("countersigner_name", "text")
    .addColumn("replaced_by", "text")
    .execute();
  await sql`create unique index proposals_version on proposals (number, version)`.execute(db);
  await sql`create index proposals_booking on proposals (booking_id)`.execute(db);

  await db.schema
    .createTable("proposal_events")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("proposal_id", "text", (c) => c.notNull().references("proposals.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .check(
          sql`kind in ('created', 'sent', 'viewed', 'signed', 'countersigned', 'declined', 'expired', 'extended', 'replaced')`,
        ),
    )
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("email", "text")
    .addColumn("detail", "text")
    .execute();
  await sql`create index proposal_events_proposal on proposal_events (proposal_id, id)`.execute(db);
  await sql`create trigger proposal_events_no_update before update on proposal_events
    begin select raise(abort, 'the audit trail is append-only'); end`.execute(db);
  await sql`create trigger proposal_events_no_delete before delete on proposal_events
    when exists (select 1 from proposals where id = old.proposal_id)
    begin select raise(abort, 'the audit trail is append-only'); end`.execute(db);

  await db.schema
    .createTable("invoices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("year", "integer", (c) => c.notNull())
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("booking_id", "text", (c) => c.references("bookings.id").onDelete("set null"))
    .addColumn("stage_id", "text", (c) => c.unique().references("booking_stages.id").onDelete("set null"))
    .addColumn("issued_on", "text", (c) => c.notNull())
    .addColumn("due_on", "text")
    .addColumn("studio", "text", (c) => c.notNull())
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("items", "text", (c) => c.notNull())
    .addColumn("project", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("tax", "text")
    .addColumn("paid_on", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await sql`create unique index invoices_year_seq on invoices (year, seq)`.execute(db);
  await sql`create trigger invoices_no_delete before delete on invoices
    begin select raise(abort, 'an issued invoice is never deleted'); end`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("invoices").execute();
  await db.schema.dropTable("proposal_events").execute();
  await db.schema.dropTable("proposals").execute();
  await db.schema.dropTable("document_counters").execute();
  await db.schema.alterTable("bookings").dropColumn("billing_address").execute();
}
