import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type MigrationResultSet } from "kysely";
import { migrations } from "../../migrations/index";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

/** Opens (creating when needed) the SQLite file with WAL, foreign keys and a 5 s busy timeout. */
export function openSqlite(file: string): SQLite.Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

export function createDb(file: string): { db: DB; sqlite: SQLite.Database } {
  const sqlite = openSqlite(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, sqlite };
}

export async function migrateToLatest(db: DB): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

const g = globalThis as typeof globalThis & { __studioDb?: { db: DB; sqlite: SQLite.Database; file: string } };

/** The process-wide database at DATA_DIR/app.db (one connection; SQLite serialises writes). */
export function getDb(dataDir: string): DB {
  const file = path.join(dataDir, "app.db");
  if (!g.__studioDb || g.__studioDb.file !== file) {
    const { db, sqlite } = createDb(file);
    g.__studioDb = { db, sqlite, file };
  }
  return g.__studioDb.db;
}

export async function closeDb(): Promise<void> {
  if (g.__studioDb) {
    const { db } = g.__studioDb;
    g.__studioDb = undefined;
    await db.destroy();
  }
}
