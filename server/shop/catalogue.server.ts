import type { Transaction } from "kysely";
import type SQLite from "better-sqlite3";
import type { DB } from "../db/db.server";
import type { Database } from "../db/schema";

/**
 * The catalogue's version (issue 20.4, decision 016): anything that changes what public pages show
 * (a template created, edited, featured or deleted, a sale counted or taken back, the demo seed)
 * announces it by adding one to the version in the database, in the same transaction as the
 * change. The HTTP layer's page cache reads the version and drops pages rendered at an older one,
 * so a change made by an operator command in another process reaches the running server too.
 * Services never import the page cache.
 */
export async function announceCatalogueChange(db: DB | Transaction<Database>): Promise<void> {
  await db
    .updateTable("catalogue_version")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("id", "=", 1)
    .execute();
}

/**
 * A reader of the version for the HTTP layer: one prepared statement on the process's SQLite
 * connection (a few microseconds per cached page served).
 */
export function catalogueVersionReader(sqlite: SQLite.Database): () => number {
  const stmt = sqlite.prepare("select version from catalogue_version where id = 1").pluck();
  return () => (stmt.get() as number | undefined) ?? 0;
}
