import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index";
import { createDb, migrateToLatest, openSqlite, writeFreshDatabase } from "../../server/db/db.server";
import { freshSchemaOf } from "../../server/db/fresh-schema.server";
import { provideRuntimeFiles } from "../../server/runtime-files";

// Issue 42.4: a new data folder's database starts as a copy of build/fresh.db (the single binary:
// its payload's copy), written by `npm run build` with writeFreshDatabase, instead of executing the
// fresh schema and switching a new file to WAL at the first start.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fresh-database-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const names = Object.keys(migrations);
const template = path.join(dir, "fresh.db");
writeFreshDatabase(template);
/** The fresh database with a mark a made database never has (user_version 4242): which one a start used. */
const marked = path.join(dir, "marked.db");
fs.copyFileSync(template, marked);
const m = openSqlite(marked);
m.pragma("user_version = 4242");
m.close();
const markOf = (sqlite: { pragma(s: string, o: { simple: true }): unknown }) =>
  sqlite.pragma("user_version", { simple: true });

/** The fresh database as the single binary hands it in (server/runtime-files.ts). */
function provide(file: string | null) {
  provideRuntimeFiles((name) => (name === "fresh.db" ? file : null));
}
afterEach(() => provideRuntimeFiles(undefined as never));

const recorded = (file: string) => {
  const sqlite = openSqlite(file);
  const rows = sqlite.prepare("select name, timestamp from kysely_migration order by name").all() as {
    name: string;
    timestamp: string;
  }[];
  sqlite.close();
  return rows;
};

describe("the fresh database", () => {
  it("is written in WAL mode with nothing but the fresh schema, no WAL file left beside it", () => {
    const header = fs.readFileSync(template).subarray(0, 20);
    expect(header.subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");
    // Bytes 18 and 19: 2 is WAL.
    expect([header[18], header[19]]).toEqual([2, 2]);
    expect(fs.existsSync(`${template}-wal`)).toBe(false);
    expect(recorded(template).map((r) => r.name)).toEqual([...names].sort());
  });

  it("starts a new database: the same schema as the migrations make, each reported and recorded as applied now", async () => {
    provide(marked);
    fs.chmodSync(marked, 0o600);
    const file = path.join(dir, "data", "app.db");
    const before = new Date().toISOString();
    const { db, sqlite } = createDb(file);
    expect(markOf(sqlite)).toBe(4242);
    const result = await migrateToLatest(db);
    expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual(names.map((n) => [n, "Success"]));
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    // The mode SQLite gives a file it makes (0644 less the umask), not the fresh database's own.
    const made = openSqlite(path.join(dir, "mode.db"));
    made.close();
    const mode = (f: string) => fs.statSync(f).mode & 0o777;
    expect(mode(file)).toBe(mode(path.join(dir, "mode.db")));
    expect(sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    // A second run finds nothing to do.
    expect((await migrateToLatest(db)).results).toEqual([]);
    await db.destroy();
    for (const row of recorded(file)) expect(row.timestamp >= before).toBe(true);
  });

  it("is the schema the migrator gives an empty database", async () => {
    provide(template);
    const { db, sqlite } = createDb(path.join(dir, "copied.db"));
    await migrateToLatest(db);
    provideRuntimeFiles(undefined as never);
    const { db: made, sqlite: madeSqlite } = createDb(path.join(dir, "made.db"));
    await migrateToLatest(made);
    expect(freshSchemaOf(sqlite, names)).toEqual(freshSchemaOf(madeSqlite, names));
    await db.destroy();
    await made.destroy();
  });

  it("is not copied over a database that exists", async () => {
    const file = path.join(dir, "existing.db");
    const existing = openSqlite(file);
    existing.exec("create table mine (x)");
    existing.close();
    provide(marked);
    const { db, sqlite } = createDb(file);
    expect(markOf(sqlite)).toBe(0);
    expect(sqlite.prepare("select name from sqlite_master where name = 'mine'").get()).toEqual({ name: "mine" });
    await db.destroy();
  });

  it("of another version (other migrations recorded) or not a database is not used: the schema is made as before", async () => {
    const stale = path.join(dir, "stale.db");
    fs.copyFileSync(marked, stale);
    const s = openSqlite(stale);
    s.prepare("delete from kysely_migration where name = ?").run(names.at(-1));
    s.close();
    const junk = path.join(dir, "junk.db");
    fs.writeFileSync(junk, "not a database at all, but long enough to be read as one ".repeat(100));
    for (const [which, file] of [
      ["stale", stale],
      ["junk", junk],
    ] as const) {
      provide(file);
      const target = path.join(dir, `from-${which}.db`);
      const opened = createDb(target);
      expect(markOf(opened.sqlite), which).toBe(0);
      const result = await migrateToLatest(opened.db);
      expect(
        result.results?.map((r) => r.migrationName),
        which,
      ).toEqual(names);
      expect(
        recorded(target).map((r) => r.name),
        which,
      ).toEqual([...names].sort());
      await opened.db.destroy();
    }
  });
});
