import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BACKUP_SUFFIX, BackupError, createBackup, type BackupManifest } from "../db/backup.server";
import {
  BACKUP_FAILURE_FLAG,
  LAST_BACKUP_FLAG,
  recordBackupSuccess,
  rotate,
  type BackupPlan,
} from "../db/backup-schedule.server";
import type { DB } from "../db/db.server";
import { DomainError } from "../errors";
import { listRemote, uploadBackup, withVersions, type Offsite, type RemoteBackup } from "../db/offsite.server";

/**
 * What the console shows of backups (issue 32.6): the backups on this machine (the rotation's,
 * the pre-upgrade ones and those kept before a restore), when the next runs, the last success and
 * a failure not yet followed by one; "Back up now"; a backup's file for download.
 */

export type BackupRow = {
  /** Where it is under BACKUP_DIR: "studio-….studio-backup" or "pre-upgrade/studio-…". */
  name: string;
  at: string;
  bytes: number;
  version: string | null;
  schema: number | null;
  reason: string;
};

const FOLDERS = ["", "pre-upgrade", "before-restore"] as const;
const NAME = /^(?:(?:pre-upgrade|before-restore)\/)?[\w.-]+\.studio-backup$/;

function manifestOf(file: string): BackupManifest | null {
  try {
    const text = execFileSync("tar", ["-xOf", file, "manifest.json"], { stdio: ["ignore", "pipe", "ignore"] });
    return JSON.parse(text.toString("utf8")) as BackupManifest;
  } catch {
    return null;
  }
}

/** Every backup under `dir`, newest first. */
export function listBackups(dir: string): BackupRow[] {
  const rows: BackupRow[] = [];
  for (const folder of FOLDERS) {
    const at = path.join(dir, folder);
    if (!fs.existsSync(at)) continue;
    for (const f of fs.readdirSync(at)) {
      if (!f.endsWith(BACKUP_SUFFIX)) continue;
      const file = path.join(at, f);
      const stat = fs.statSync(file);
      const m = manifestOf(file);
      rows.push({
        name: folder ? `${folder}/${f}` : f,
        at: m?.createdAt ?? stat.mtime.toISOString(),
        bytes: stat.size,
        version: m?.version ?? null,
        schema: m?.schema.level ?? null,
        reason: m?.reason ?? (folder || "manual"),
      });
    }
  }
  return rows.sort((a, b) => b.at.localeCompare(a.at));
}

function flag<T>(value: string | undefined): T | null {
  if (!value) return null;
  try {
    return JSON.parse(value) as T;
  } catch {
    return null;
  }
}

/** The schedule, the last success and an unresolved failure, as the console shows them. */
export async function backupStatus(db: DB, schedule: { plan: BackupPlan; next: Date | null } | undefined) {
  const flags = await db
    .selectFrom("studio_flags")
    .select(["key", "value"])
    .where("key", "in", [LAST_BACKUP_FLAG, BACKUP_FAILURE_FLAG])
    .execute();
  const get = (k: string) => flags.find((f) => f.key === k)?.value;
  return {
    cron: schedule?.plan.cron ?? null,
    keep: schedule?.plan.keep ?? null,
    timezone: schedule?.plan.timezone ?? null,
    next: schedule?.next?.toISOString() ?? null,
    last: flag<{ at: string; file: string }>(get(LAST_BACKUP_FLAG)),
    failure: flag<{ at: string; message: string }>(get(BACKUP_FAILURE_FLAG)),
  };
}

/**
 * "Back up now": one backup into the folder, the rotation applied, the failure banner cleared, and
 * with off-site settings the same file uploaded to the bucket (`uploaded`: its key).
 */
export async function backupNow(db: DB, dataDir: string, dir: string, keep: number, offsite: Offsite | null = null) {
  const r = await createBackup(dataDir, { defaultDir: dir, reason: "manual" });
  rotate(dir, keep);
  await recordBackupSuccess(db, r.manifest.createdAt, r.file);
  const name = path.basename(r.file);
  // Off the machine too, as a scheduled run does (a manual backup is never rotated there either).
  let uploaded: string | null = null;
  if (offsite) {
    try {
      uploaded = await uploadBackup(offsite, r.file, r.manifest);
    } catch (error) {
      throw new BackupError(`${name} was written on this machine, but ${(error as Error).message}`);
    }
  }
  return { name, bytes: fs.statSync(r.file).size, uploaded };
}

/** The file of a listed backup (for download), or not-found for any other name. */
export function backupFile(dir: string, name: string): string {
  if (!NAME.test(name)) throw new DomainError("not-found", "No such backup");
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) throw new DomainError("not-found", "No such backup");
  return file;
}

/** The bucket's backups for the console (null without off-site settings; the error when unreachable). */
export async function offsiteBackups(
  o: Offsite | null,
): Promise<{ bucket: string; backups: RemoteBackup[]; error: string | null } | null> {
  if (!o) return null;
  try {
    // The twelve the console shows, each with the version its upload recorded.
    return { bucket: o.bucket, backups: await withVersions(o, (await listRemote(o)).slice(0, 12)), error: null };
  } catch (error) {
    return { bucket: o.bucket, backups: [], error: (error as Error).message };
  }
}
