import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { BackupError, BACKUP_SUFFIX, createBackup, KNOWN_MIGRATIONS, PRODUCT_VERSION } from "./backup.server";
import type { DB } from "./db.server";
import { rotate } from "./backup-schedule.server";
import { log } from "../log.server";

/**
 * Upgrades an owner can trust (issue 32.4, 32.7): before a new version migrates a database that
 * holds data, it takes a backup (kept apart from the rotation, the last 3) and names it in the
 * log; an older version started on data a newer one upgraded stops and says what to do, instead
 * of the migrator's "corrupted migrations".
 */

export const PRE_UPGRADE_KEEP = 3;

/** The migrations this database has, those it lacks, and those this build does not know. */
export async function schemaState(db: DB): Promise<{ applied: string[]; pending: string[]; unknown: string[] }> {
  const has = await sql<{
    n: number;
  }>`select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db);
  const applied = has.rows[0]?.n
    ? (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name)
    : [];
  const known = new Set(KNOWN_MIGRATIONS);
  const done = new Set(applied);
  return {
    applied,
    pending: KNOWN_MIGRATIONS.filter((m) => !done.has(m)),
    unknown: applied.filter((m) => !known.has(m)),
  };
}

function newestIn(dir: string): string | null {
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(BACKUP_SUFFIX))
    .sort();
  return files.length ? path.join(dir, files.at(-1)!) : null;
}

/**
 * Stops an older version on newer data: "this data was upgraded by a newer version (schema X);
 * run that version, or restore the backup taken before the upgrade: FILE".
 */
export function refuseNewerData(state: { applied: string[]; unknown: string[] }, preUpgradeDir: string): void {
  if (!state.unknown.length) return;
  const backup = newestIn(preUpgradeDir);
  throw new BackupError(
    `this data was upgraded by a newer version (schema ${state.applied.length}, ${state.unknown.at(-1)}); this is version ${PRODUCT_VERSION} (schema ${KNOWN_MIGRATIONS.length}). Run that version, or restore the backup taken before the upgrade: ${backup ?? `none found in ${preUpgradeDir}`}`,
  );
}

/** Whether the database holds anything an owner would miss. */
async function holdsData(db: DB): Promise<boolean> {
  const r = await sql<{ n: number }>`select
      (select count(*) from sqlite_master where type = 'table' and name in ('bookings', 'users', 'purchases')) as n`.execute(
    db,
  );
  if (!r.rows[0]?.n) return false;
  const rows = await sql<{ n: number }>`select
      (select count(*) from bookings) + (select count(*) from users) + (select count(*) from purchases) as n`.execute(
    db,
  );
  return Number(rows.rows[0]?.n ?? 0) > 0;
}

/**
 * Before migrations run on data: a backup into `preUpgradeDir` (the last PRE_UPGRADE_KEEP kept
 * there, apart from the scheduled rotation). Answers its file, or null when nothing was pending or
 * there was no data to keep.
 */
export async function backupBeforeUpgrade(
  db: DB,
  dataDir: string,
  preUpgradeDir: string,
  state: { applied: string[]; pending: string[] },
  now = new Date(),
): Promise<string | null> {
  if (!state.pending.length || !state.applied.length || !(await holdsData(db))) return null;
  const { file } = await createBackup(dataDir, { defaultDir: preUpgradeDir, reason: "pre-upgrade", now });
  rotate(preUpgradeDir, PRE_UPGRADE_KEEP, /\.studio-backup$/);
  return file;
}

/**
 * What every start and `studio migrate` does before using the database: refuse data a newer version
 * upgraded, back up data that is about to be migrated, then migrate. Answers the migrations
 * applied and the pre-upgrade backup, if one was taken.
 */
export async function upgradeSchema(
  db: DB,
  dataDir: string,
  backupDir: string,
  migrate: (db: DB) => Promise<{ results?: { migrationName: string; status: string }[] }>,
): Promise<{ applied: string[]; backup: string | null }> {
  const preUpgradeDir = path.join(backupDir, "pre-upgrade");
  const state = await schemaState(db);
  refuseNewerData(state, preUpgradeDir);
  const backup = await backupBeforeUpgrade(db, dataDir, preUpgradeDir, state);
  if (backup) log.info(`[backup] taken before upgrading the database (${state.pending.length} to apply): ${backup}`);
  const result = await migrate(db);
  return {
    applied: (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName),
    backup,
  };
}
