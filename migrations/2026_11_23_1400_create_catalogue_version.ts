import { sql, type Kysely } from "kysely";

/**
 * What public pages show (templates, their sales counts) has one version number, kept in the
 * database (issue 20.4): every change to the catalogue adds one in its own transaction, whichever
 * process made it (the server, or an operator command such as `seed`), and the running server's
 * page cache drops pages rendered at an older version.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("catalogue_version")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint("catalogue_version_one_row", sql`id = 1`)
    .execute();
  await sql`insert into catalogue_version (id, version) values (1, 0)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("catalogue_version").ifExists().execute();
}
