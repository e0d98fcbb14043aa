import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index";
import { createDb, migrateToLatest } from "../../server/db/db.server";
import { applyFreshSchema, freshSchemaModule, freshSchemaOf } from "../../server/db/fresh-schema.server";

// Issue 42.4: an empty data folder gets the schema the migrations end with in one transaction.
// migrations/fresh-schema.ts is that schema, read back from a database the migrator made; a new
// migration without the file rewritten fails here (`npx vitest run tests/unit/fresh-schema.test.ts -u`
// rewrites it), and until then an empty folder is migrated one migration at a time as before.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fresh-schema-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const names = Object.keys(migrations);

/** A database migrated by Kysely's migrator alone, one migration at a time. */
async function migratedOneByOne() {
  const { db, sqlite } = createDb(path.join(dir, `one-by-one-${Math.random()}.db`));
  const { Migrator } = await import("kysely");
  const result = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (result.error) throw result.error;
  return { db, sqlite };
}

describe("the fresh schema", () => {
  it("is what migrateToLatest gives an empty database, the migrations reported as applied", async () => {
    const { db } = createDb(path.join(dir, "started.db"));
    const result = await migrateToLatest(db);
    expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual(names.map((n) => [n, "Success"]));
    await db.destroy();
  });

  it("is not applied for another list of migrations (a new one, the file not rewritten)", () => {
    const { sqlite } = createDb(path.join(dir, "other-list.db"));
    expect(applyFreshSchema(sqlite, [...names, "2099_01_01_0000_later"])).toBeNull();
    expect(sqlite.prepare("select count(*) as n from sqlite_master").get()).toEqual({ n: 0 });
    sqlite.close();
  });

  it("is what the migrations make of an empty database (rewrite with -u)", async () => {
    const { db, sqlite } = await migratedOneByOne();
    const schema = freshSchemaOf(sqlite, names);
    await db.destroy();
    expect(schema.statements.some((s) => s.startsWith("insert into"))).toBe(true);
    await expect(freshSchemaModule(schema)).toMatchFileSnapshot("../../migrations/fresh-schema.ts");
  });

  it("makes an empty database the same as the migrator does, every migration recorded", async () => {
    const { db: a, sqlite: one } = await migratedOneByOne();
    const { db: b, sqlite: fresh } = createDb(path.join(dir, "fresh.db"));
    expect(applyFreshSchema(fresh, names)).toEqual(names);
    expect(freshSchemaOf(fresh, names)).toEqual(freshSchemaOf(one, names));
    const applied = (db: typeof a) =>
      sql<{ name: string }>`select name from kysely_migration order by name`
        .execute(db)
        .then((r) => r.rows.map((x) => x.name));
    expect(await applied(b)).toEqual(await applied(a));
    expect(fresh.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(fresh.pragma("foreign_key_check")).toEqual([]);
    // The migrator finds nothing left to do, and the lock is free; a second fresh schema is refused.
    expect(applyFreshSchema(fresh, names)).toBeNull();
    const again = await migrateToLatest(b);
    expect(again.results).toEqual([]);
    await a.destroy();
    await b.destroy();
  });

  it("leaves a database with anything in it to the migrator", async () => {
    const { db, sqlite } = createDb(path.join(dir, "not-empty.db"));
    sqlite.exec("create table owner_notes (id integer primary key)");
    const result = await migrateToLatest(db);
    expect(result.results?.length).toBe(names.length);
    const tables = sqlite.prepare("select name from sqlite_master where type = 'table' and name = 'owner_notes'").all();
    expect(tables).toHaveLength(1);
    await db.destroy();
  });
});
