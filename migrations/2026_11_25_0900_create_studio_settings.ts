import { sql, type Kysely } from "kysely";

/**
 * Your studio, not ours (issue 29): what the owner edits lives in the database.
 *
 * - `studio_settings`: one row per section of the console's Settings (studio, packages, promotion,
 *   case studies, testimonials, legal), its content as JSON, whether it is still the sample
 *   studio's, and who saved it last and when. A section without a row reads as the sample.
 * - `studio_flags`: facts about the data folder, such as "the sample templates were seeded once".
 * - `setup_tokens`: the first run's one-time setup link (hashed; 24 hours; single use).
 * - `templates.sample`: the demo templates, so "Remove sample templates" can find them.
 * - `bookings.package_name`: the package's name when the booking was made (its prices already are
 *   kept: package_price, total_amount, and each add-on's name and price in `addons`).
 *
 * A data folder that already has templates (or any booking, purchase or user) was seeded before:
 * it is marked so, and the demo slugs of that seed are marked as samples, without the ratings and
 * reviews they were seeded with; every template's sales count becomes its active purchases.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const DEMO_SLUGS = [
  "atelier",
  "launchpad",
  "maison",
  "northbound",
  "marginalia",
  "spark",
  "folio-mono",
  "ledger",
  "harvest-market",
  "studio-grid",
];

export async function up(db: AnyDb): Promise<void> {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema
    .createTable("studio_settings")
    .addColumn("section", "text", (c) => c.primaryKey())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("sample", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_by", "text")
    .execute();
  await db.schema
    .createTable("studio_flags")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createTable("setup_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .alterTable("templates")
    .addColumn("sample", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("bookings").addColumn("package_name", "text").execute();
  await sql`update templates set sample = 1 where slug in (${sql.join(DEMO_SLUGS.map((s) => sql.lit(s)))})`.execute(
    db,
  );
  await sql`update templates set rating = 0, review_count = 0 where sample = 1`.execute(db);
  await sql`update templates set sales_count =
    (select count(*) from purchases p where p.template_id = templates.id and p.status = 'active')`.execute(db);
  await sql`insert into studio_flags (key, value)
    select 'sample_templates_seeded', 'before-settings'
    where exists (select 1 from templates) or exists (select 1 from bookings)
       or exists (select 1 from purchases) or exists (select 1 from users)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("bookings").dropColumn("package_name").execute();
  await db.schema.alterTable("templates").dropColumn("sample").execute();
  await db.schema.dropTable("setup_tokens").ifExists().execute();
  await db.schema.dropTable("studio_flags").ifExists().execute();
  await db.schema.dropTable("studio_settings").ifExists().execute();
}
