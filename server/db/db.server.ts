import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type MigrationResultSet } from "kysely";
import { migrations } from "../../migrations/index";
import { besideServer, runtimeFile, runtimeFilesOnDemand } from "../runtime-files";
import { applyFreshSchema } from "./fresh-schema.server";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

let loadedAddon: { file: string; addon: object } | undefined;

/**
 * The better-sqlite3 addon, when it is not the package's own build: the single binary sets
 * `STUDIO_SQLITE_ADDON` to the addon it extracted (compiled for the Node it embeds), loaded once
 * with `process.dlopen` (a single executable has no file-based require). Unset, as under
 * `npm start`: undefined, and the package loads its own build from node_modules.
 */
export function sqliteNativeBinding(): SQLite.Options["nativeBinding"] {
  const file = process.env.STUDIO_SQLITE_ADDON;
  if (!file) return undefined;
  if (loadedAddon?.file !== file) {
    const module = { exports: {} };
    process.dlopen(module, file);
    loadedAddon = { file, addon: module.exports };
  }
  // better-sqlite3 takes the addon object as well as a path; @types/better-sqlite3 names only a path.
  return loadedAddon.addon as unknown as string;
}

/** Opens (creating when needed) the SQLite file with WAL, foreign keys and a 5 s busy timeout. */
export function openSqlite(file: string): SQLite.Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file, { nativeBinding: sqliteNativeBinding() });
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

const STATEMENT_CACHE_SIZE = 300;

/**
 * better-sqlite3 with its prepared statements kept and reused by SQL text (Kysely prepares on
 * every query otherwise). Safe because queries never stream: a statement is never busy when reused.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL: the disk is full);
  // Kysely's ROLLBACK after it would fail with "no transaction is active" and hide the real error.
  const rollback = sqlite.prepare("rollback");
  const safeRollback = {
    reader: false,
    run: () => (sqlite.inTransaction ? rollback.run() : { changes: 0, lastInsertRowid: 0 }),
    all: () => [],
    iterate: () => [][Symbol.iterator](),
  };
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      if (sql === "rollback") return safeRollback;
      let stmt = cache.get(sql);
      if (stmt) {
        // Most recently used last, so the oldest is evicted first.
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

const connections = new WeakMap<DB, SQLite.Database>();
/** Databases copied from the fresh database: their migrations are reported as applied by `migrateToLatest`. */
const copiedFresh = new WeakSet<SQLite.Database>();

/**
 * The fresh database `npm run build` writes beside the server (build/fresh.db: the fresh schema in
 * WAL mode, every migration recorded), or the single binary's copy of it; null when there is none,
 * as when the server runs from its sources (the tests, `npm run dev` before a build).
 */
export const FRESH_DATABASE = "fresh.db";
function freshDatabaseFile(): string | null {
  return runtimeFilesOnDemand() ? runtimeFile(FRESH_DATABASE) : besideServer(FRESH_DATABASE);
}

/** Writes `file`, a new database holding the fresh schema in WAL mode (`npm run build`, scripts/build.mjs). */
export function writeFreshDatabase(file: string): void {
  fs.rmSync(file, { force: true });
  const sqlite = openSqlite(file);
  try {
    if (!applyFreshSchema(sqlite, Object.keys(migrations)))
      throw new Error("migrations/fresh-schema.ts does not end with these migrations: run its test with -u");
  } finally {
    // The last connection closing folds the WAL into the file and removes it.
    sqlite.close();
  }
}

/** `file` made a copy of `fresh` and opened, or null (and no file) when the copy is not of this version. */
function openCopy(fresh: string, file: string): SQLite.Database | null {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written, not copied: a copy keeps the source's mode, where a file SQLite makes takes 0644 less the
  // umask (0640 under the studio's own: data private to its user and group).
  fs.writeFileSync(file, fs.readFileSync(fresh), { flag: "wx", mode: 0o644 });
  let sqlite: SQLite.Database | undefined;
  try {
    sqlite = openSqlite(file);
    const recorded = sqlite.prepare("select name from kysely_migration order by name").pluck().all() as string[];
    if (recorded.join() === Object.keys(migrations).sort().join()) {
      copiedFresh.add(sqlite);
      return sqlite;
    }
  } catch {
    // Not a fresh database at all: made as if there were none.
  }
  sqlite?.close();
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  return null;
}

/**
 * Opens the database at `file`. A file that does not exist yet starts as a copy of the fresh
 * database when there is one (issue 42.4): the schema written at build time, where executing it
 * and switching a new file to WAL (three fsyncs) cost a first start some 10 ms. A copy whose
 * recorded migrations are not exactly this version's is removed and the file made as before.
 */
export function createDb(file: string): { db: DB; sqlite: SQLite.Database } {
  const fresh = file !== ":memory:" && !fs.existsSync(file) ? freshDatabaseFile() : null;
  const sqlite = (fresh && openCopy(fresh, file)) || openSqlite(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  connections.set(db, sqlite);
  return { db, sqlite };
}

/** The SQLite connection under a database made by `createDb`, for the few hot reads that skip Kysely. */
export function sqliteOf(db: DB): SQLite.Database | undefined {
  return connections.get(db);
}

/**
 * Applies the pending migrations. An empty database gets the schema they end with at once
 * (server/db/fresh-schema.server.ts), recorded as the same migrations applied.
 */
export async function migrateToLatest(db: DB): Promise<MigrationResultSet> {
  const sqlite = connections.get(db);
  const fresh = sqlite ? (appliedAsCopied(sqlite) ?? applyFreshSchema(sqlite, Object.keys(migrations))) : null;
  if (fresh) return { results: fresh.map((migrationName) => ({ migrationName, direction: "Up", status: "Success" })) };
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

/**
 * A database just copied from the fresh database: its migrations, recorded as applied now (as
 * applying them would have), once; otherwise null.
 */
function appliedAsCopied(sqlite: SQLite.Database): string[] | null {
  if (!copiedFresh.delete(sqlite)) return null;
  sqlite.prepare("update kysely_migration set timestamp = ?").run(new Date().toISOString());
  return Object.keys(migrations);
}

let processDb: { db: DB; sqlite: SQLite.Database; file: string } | undefined;

/** The process-wide database at DATA_DIR/app.db (one connection; SQLite serialises writes). */
export function getDb(dataDir: string): DB {
  const file = path.join(dataDir, "app.db");
  if (!processDb || processDb.file !== file) {
    const { db, sqlite } = createDb(file);
    processDb = { db, sqlite, file };
  }
  return processDb.db;
}

/** The process-wide SQLite connection under `getDb`, for the few hot reads that skip Kysely. */
export function getSqlite(dataDir: string): SQLite.Database {
  getDb(dataDir);
  return processDb!.sqlite;
}

export async function closeDb(): Promise<void> {
  if (processDb) {
    const { db } = processDb;
    processDb = undefined;
    await db.destroy();
  }
}
