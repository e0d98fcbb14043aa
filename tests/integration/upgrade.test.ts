import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index";
import { createDb, migrateToLatest } from "../../server/db/db.server";
import { KNOWN_MIGRATIONS, verifyBackup } from "../../server/db/backup.server";
import { PRE_UPGRADE_KEEP, upgradeSchema } from "../../server/db/upgrade.server";

// Issue 32.4 and 32.7: a backup before a new version migrates data; an older version on newer data stops.
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

async function previousRelease() {
  const dataDir = tmp("upgrade-");
  const { db } = createDb(path.join(dataDir, "app.db"));
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  // The data of the release before this one: every migration but the last.
  expect((await migrator.migrateTo(KNOWN_MIGRATIONS.at(-2)!)).error).toBeUndefined();
  return { dataDir, db };
}

describe("upgrades", () => {
  it("take a backup before migrating data, keep the last three, and name it", async () => {
    const { dataDir, db } = await previousRelease();
    await sql`insert into users (id, email) values ('u1', 'owner@example.com')`.execute(db);
    const backups = tmp("backups-");
    const r = await upgradeSchema(db, dataDir, backups, migrateToLatest);
    expect(r.applied).toEqual([KNOWN_MIGRATIONS.at(-1)]);
    expect(r.backup).toMatch(/pre-upgrade[/\\]studio-.*-pre-upgrade\.studio-backup$/);
    const manifest = await verifyBackup(r.backup!);
    expect(manifest).toMatchObject({ reason: "pre-upgrade", schema: { level: KNOWN_MIGRATIONS.length - 1 } });
    // Nothing pending next time: no backup.
    expect((await upgradeSchema(db, dataDir, backups, migrateToLatest)).backup).toBeNull();
    // Older ones beyond three are removed.
    for (let i = 0; i < 4; i++)
      fs.writeFileSync(
        path.join(backups, "pre-upgrade", `studio-2020-01-0${i + 1}T00-00-00Z-pre-upgrade.studio-backup`),
        "",
      );
    await sql`delete from kysely_migration where name = ${KNOWN_MIGRATIONS.at(-1)!}`.execute(db);
    await migrations[KNOWN_MIGRATIONS.at(-1)!].down!(db);
    const again = await upgradeSchema(db, dataDir, backups, migrateToLatest);
    expect(again.backup).not.toBeNull();
    expect(fs.readdirSync(path.join(backups, "pre-upgrade"))).toHaveLength(PRE_UPGRADE_KEEP);
    await db.destroy();
  });

  it("takes none for a new, empty data folder", async () => {
    const dataDir = tmp("fresh-");
    const { db } = createDb(path.join(dataDir, "app.db"));
    const r = await upgradeSchema(db, dataDir, tmp("backups-"), migrateToLatest);
    expect(r.backup).toBeNull();
    expect(r.applied).toHaveLength(KNOWN_MIGRATIONS.length);
    await db.destroy();
  });

  it("an older version on data a newer one upgraded stops and says what to do", async () => {
    const dataDir = tmp("newer-");
    const { db } = createDb(path.join(dataDir, "app.db"));
    await migrateToLatest(db);
    await sql`insert into kysely_migration (name, timestamp) values ('2099_01_01_0000_from_the_future', 'x')`.execute(
      db,
    );
    const backups = tmp("backups-");
    fs.mkdirSync(path.join(backups, "pre-upgrade"));
    const kept = path.join(backups, "pre-upgrade", "studio-2026-11-25T03-00-00Z-pre-upgrade.studio-backup");
    fs.writeFileSync(kept, "");
    await expect(upgradeSchema(db, dataDir, backups, migrateToLatest)).rejects.toThrow(
      `this data was upgraded by a newer version (schema ${KNOWN_MIGRATIONS.length + 1}, 2099_01_01_0000_from_the_future); this is version 1.0.0 (schema ${KNOWN_MIGRATIONS.length}). Run that version, or restore the backup taken before the upgrade: ${kept}`,
    );
    await db.destroy();
  });
});
