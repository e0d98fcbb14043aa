import type { Transaction } from "kysely";
import type SQLite from "better-sqlite3";
import { sqliteOf, type DB } from "./db.server";
import type { Database } from "./schema";

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
  // What this process read before is not the version any more, in this very turn too.
  announced++;
}

/** How many changes this process has announced: a reader that read before one reads again. */
let announced = 0;
/** The event loop's next turn, as Node gives it (taken once: a test's fake timers never hold it). */
const nextTurn = globalThis.setImmediate;
const versionReaders = new WeakMap<SQLite.Database, () => number>();

/**
 * A reader of the version: one prepared statement on a SQLite connection, made once per connection
 * and shared by all who read it (the page cache, the security headers' calendar link,
 * `keptUntilCatalogueChange`). It reads the database at most once per turn of the event loop: the
 * requests answered in one turn share the read (a read was a tenth of a cached page's time under
 * load, issue 42.1). A change is still seen at the next request: another process's (an operator
 * command) commits before the request that should see it arrives, so in a later turn; this
 * process's own announces it (`announceCatalogueChange`), which makes the next read go to the
 * database, in the same turn too.
 */
export function catalogueVersionReader(sqlite: SQLite.Database): () => number {
  let read = versionReaders.get(sqlite);
  if (!read) {
    const stmt = sqlite.prepare("select version from catalogue_version where id = 1").pluck();
    let known: number | undefined;
    let readAt = -1;
    const forget = () => {
      known = undefined;
    };
    read = () => {
      if (known === undefined || readAt !== announced) {
        if (known === undefined) nextTurn(forget);
        known = (stmt.get() as number | undefined) ?? 0;
        readAt = announced;
      }
      return known;
    };
    versionReaders.set(sqlite, read);
  }
  return read;
}

/** The version now: one prepared statement when the database has its connection at hand (`sqliteOf`). */
async function versionOf(db: DB): Promise<number> {
  const sqlite = sqliteOf(db);
  if (!sqlite) {
    const row = await db.selectFrom("catalogue_version").select("version").where("id", "=", 1).executeTakeFirst();
    return row?.version ?? 0;
  }
  return catalogueVersionReader(sqlite)();
}

/**
 * What pages read of the catalogue and of the studio's settings (issue 34.2): `load`'s answer is
 * kept in memory per database and key at the version it was read, and loaded again only once the
 * version moved (a save here, or in another process such as an operator command). Asking costs
 * the version's prepared statement, never the load; concurrent first asks share one load.
 * Callers must not change what they are given (every request shares it).
 */
export function keptUntilCatalogueChange<T>(load: (db: DB, key: string) => Promise<T>) {
  const kept = new WeakMap<DB, Map<string, { version: number; value: Promise<T> }>>();
  return async (db: DB, key = ""): Promise<T> => {
    const version = await versionOf(db);
    let byKey = kept.get(db);
    if (!byKey) kept.set(db, (byKey = new Map()));
    const hit = byKey.get(key);
    if (hit && hit.version === version) return hit.value;
    const value = load(db, key);
    byKey.set(key, { version, value });
    // A failed load is not kept: the next ask tries again.
    value.catch(() => {
      if (byKey.get(key)?.value === value) byKey.delete(key);
    });
    return value;
  };
}
