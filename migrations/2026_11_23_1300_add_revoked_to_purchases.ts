import { sql, type Kysely } from "kysely";

/**
 * The studio can revoke a buyer's access from the console (issue 19.7): `purchases.status` gains
 * 'revoked' and the purchase remembers when (`revoked_at`).
 *
 * SQLite cannot change a CHECK constraint in place, so the table is rebuilt the way SQLite's
 * ALTER TABLE documentation prescribes: foreign keys off (outside any transaction), then in one
 * transaction create the new table, copy the rows, drop the old one, rename the new one to its
 * name (download_logs' reference to "purchases" then points at it), recreate the indexes and
 * check every foreign key before committing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const COLUMNS = "id, user_id, template_id, amount_paid, license_key, stripe_session_id, status, created_at, stripe_payment_intent";

async function rebuildPurchases(db: AnyDb, statuses: readonly string[], selected: string, withRevokedAt: boolean) {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  const allowed = sql.join(statuses.map((s) => sql.lit(s)));
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      let table = trx.schema
        .createTable("purchases_rebuilt")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("template_id", "text", (c) => c.notNull().references("templates.id").onDelete("cascade"))
        .addColumn("amount_paid", "integer", (c) => c.notNull())
        .addColumn("license_key", "text", (c) => c.notNull().unique())
        .addColumn("stripe_session_id", "text", (c) => c.unique())
        .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
        .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
        .addColumn("stripe_payment_intent", "text");
      if (withRevokedAt) table = table.addColumn("revoked_at", "text");
      await table
        .addUniqueConstraint("purchases_user_template", ["user_id", "template_id"])
        .addCheckConstraint("purchases_status", sql`status in (${allowed})`)
        .addCheckConstraint("purchases_amount", sql`amount_paid >= 0`)
        .execute();
      await sql`insert into purchases_rebuilt (${sql.raw(COLUMNS)}) select ${sql.raw(selected)} from purchases`.execute(trx);
      await trx.schema.dropTable("purchases").execute();
      await trx.schema.alterTable("purchases_rebuilt").renameTo("purchases").execute();
      await trx.schema.createIndex("purchases_created_at").on("purchases").column("created_at").execute();
      await trx.schema.createIndex("purchases_template_id").on("purchases").column("template_id").execute();
      await trx.schema.createIndex("purchases_stripe_payment_intent").on("purchases").column("stripe_payment_intent").execute();
      const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.rows.length) throw new Error(`purchases rebuild left ${broken.rows.length} broken foreign keys`);
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

export async function up(db: AnyDb): Promise<void> {
  await rebuildPurchases(db, ["active", "refunded", "revoked"], COLUMNS, true);
}

export async function down(db: AnyDb): Promise<void> {
  // The old constraint has no 'revoked': a revoked purchase goes back as refunded (no access either way).
  const copy = COLUMNS.replace("status", "case status when 'revoked' then 'refunded' else status end");
  await rebuildPurchases(db, ["active", "refunded"], copy, false);
}
