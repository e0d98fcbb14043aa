import fs from "node:fs";
import path from "node:path";
import { Cron } from "croner";
import type { DB } from "./db.server";
import { cronProblem, cronZone } from "../cron";
import { DomainError } from "../errors";
import { BACKUP_SUFFIX, createBackup, readManifest, type BackupManifest } from "./backup.server";
import { rotateRemote, uploadBackup, type Offsite } from "./offsite.server";
import { log } from "../log.server";
import { readFlag, setFlag } from "./flags.server";

/**
 * Backups on a schedule (issue 32.2): a cron expression in the studio's time zone (`BACKUP_CRON`,
 * default every day at 03:00; `off` turns it off), run by croner with overlap protection (a run
 * never starts while the last is still writing), keeping the newest `BACKUP_KEEP` (default 7) in
 * `BACKUP_DIR`. Each run's outcome is kept in `studio_flags` (the console's list and banner read
 * it); a failure is logged in one line and told to `onFailure` once until a later run succeeds.
 */

export const DEFAULT_BACKUP_CRON = "0 3 * * *";
export const DEFAULT_BACKUP_KEEP = 7;
export const LAST_BACKUP_FLAG = "backup_last_ok";
export const BACKUP_FAILURE_FLAG = "backup_failure";

export type BackupPlan = { cron: string; keep: number; dir: string; timezone: string; offsite?: Offsite | null };

/**
 * The names the rotation counts: scheduled backups (`backupFileName`). Backups made by hand are
 * named `…-manual.studio-backup` and never rotated; one made by hand by an earlier version (which
 * named it like a scheduled one) is told apart by its manifest's reason.
 */
const SCHEDULED_NAME = /^studio-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.studio-backup$/;

/**
 * A backup that succeeded (the schedule's, the console's "Back up now", `studio backup`): the
 * console's "Last", /healthz's lastBackup (by its file name: no path of this machine goes out)
 * and the end of a failure's banner.
 */
export async function recordBackupSuccess(db: DB, at: string, file: string): Promise<void> {
  await setFlag(db, LAST_BACKUP_FLAG, JSON.stringify({ at, file: path.basename(file) }));
  await setFlag(db, BACKUP_FAILURE_FLAG, null);
}

/**
 * The scheduled backups in `dir` beyond the newest `keep`, removed; answers their names. With
 * `names`, the files so named instead (the pre-upgrade folder's own rotation).
 */
export function rotate(dir: string, keep: number, names?: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  const files: string[] = [];
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith(BACKUP_SUFFIX) || !(names ?? SCHEDULED_NAME).test(f)) continue;
    const reason = names ? null : readManifest(path.join(dir, f))?.reason;
    if (reason && reason !== "scheduled") continue;
    files.push(f);
  }
  const old = files.slice(0, Math.max(0, files.length - keep));
  for (const f of old) fs.rmSync(path.join(dir, f), { force: true });
  return old;
}

/** One scheduled run: a backup, the rotation, the outcome recorded. Never throws. */
export async function runScheduledBackup(
  db: DB,
  dataDir: string,
  plan: BackupPlan,
  onFailure: (message: string) => Promise<void> = async () => {},
  now = new Date(),
): Promise<{ file: string; manifest: BackupManifest; removed: string[] } | { error: string }> {
  try {
    const r = await createBackup(dataDir, { defaultDir: plan.dir, reason: "scheduled", now });
    const removed = rotate(plan.dir, plan.keep);
    if (plan.offsite) {
      // Off the machine too, the same number kept there; a failed upload fails the run (reported).
      const key = await uploadBackup(plan.offsite, r.file, r.manifest);
      await rotateRemote(plan.offsite, plan.keep);
      log.info(`[backup] uploaded to ${plan.offsite.bucket}: ${key}`);
    }
    await recordBackupSuccess(db, now.toISOString(), r.file);
    log.info(`[backup] ${r.file}${removed.length ? ` (removed ${removed.length} older)` : ""}`);
    return { ...r, removed };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`[backup] the scheduled backup failed: ${message}`);
    const already = await db
      .selectFrom("studio_flags")
      .select("value")
      .where("key", "=", BACKUP_FAILURE_FLAG)
      .executeTakeFirst()
      .catch(() => undefined);
    await setFlag(db, BACKUP_FAILURE_FLAG, JSON.stringify({ at: now.toISOString(), message })).catch(() => {});
    if (!already) await onFailure(message).catch((e) => log.error({ err: e }, "[backup] could not tell the studio"));
    return { error: message };
  }
}

let running:
  | {
      plan: BackupPlan;
      next: () => Date | null;
      stop: () => void;
      db: DB;
      dataDir: string;
      onFailure?: (message: string) => Promise<void>;
    }
  | undefined;

export const SCHEDULE_FLAG = "backup_schedule";

/** Stops whatever schedule runs (at shutdown), the console's replacement included. */
export function stopBackupSchedule(): void {
  running?.stop();
}

/**
 * The schedule saved in the console (it wins over BACKUP_CRON and BACKUP_KEEP), if any. One the
 * console's rules now refuse (saved by an earlier version: every second, say) is not taken: the
 * log says so and BACKUP_CRON applies until the owner saves another.
 */
export async function savedSchedule(db: DB): Promise<{ cron: string; keep: number } | null> {
  const raw = await readFlag(db, SCHEDULE_FLAG);
  if (raw === null) return null;
  let v: { cron?: unknown; keep?: unknown };
  try {
    v = JSON.parse(raw) as typeof v;
  } catch {
    return null;
  }
  if (typeof v.cron !== "string" || !Number.isInteger(v.keep)) return null;
  const problem = cronProblem(v.cron, running?.plan.timezone ?? "UTC", "The schedule saved in the console");
  if (problem) {
    log.warn(`[backup] ${problem}; BACKUP_CRON applies until another is saved`);
    return null;
  }
  return { cron: v.cron, keep: v.keep as number };
}

/**
 * The console's "Schedule": checked (a cron expression in the studio's zone, or "off"; keep 1 to
 * 1,000), saved, and the running schedule replaced at once. Throws a DomainError saying what is wrong.
 */
export async function rescheduleBackups(db: DB, input: { cron: string; keep: number }): Promise<{ next: Date | null }> {
  const cron = input.cron.trim();
  const zone = running?.plan.timezone ?? "UTC";
  const problem = cronProblem(cron, zone, "The schedule");
  if (problem) throw new DomainError("invalid", problem);
  if (!Number.isInteger(input.keep) || input.keep < 1 || input.keep > 1000)
    throw new DomainError("invalid", "Keep a whole number of backups from 1 to 1,000");
  await setFlag(db, SCHEDULE_FLAG, JSON.stringify({ cron, keep: input.keep }));
  if (!running) return { next: null };
  const { plan, dataDir, onFailure } = running;
  running.stop();
  const job = startBackupSchedule(running?.db ?? db, dataDir, { ...plan, cron, keep: input.keep }, onFailure);
  return { next: job.next() };
}

/** The schedule this process runs (the console shows it), or undefined before the server started it. */
export function currentSchedule(): { plan: BackupPlan; next: Date | null } | undefined {
  return running && { plan: running.plan, next: running.next() };
}

/** Starts the schedule (nothing for `off`); `stop()` ends it, `next()` says when it runs next. */
export function startBackupSchedule(
  db: DB,
  dataDir: string,
  plan: BackupPlan,
  onFailure?: (message: string) => Promise<void>,
): { stop: () => void; next: () => Date | null } {
  if (plan.cron === "off") {
    const stop = () => void (running = undefined);
    running = { plan, next: () => null, stop, db, dataDir, onFailure };
    return { stop, next: () => null };
  }
  const job = new Cron(plan.cron, { ...cronZone(plan.timezone), protect: true }, async () => {
    await runScheduledBackup(db, dataDir, plan, onFailure);
  });
  const stop = () => {
    job.stop();
    running = undefined;
  };
  running = { plan, next: () => job.nextRun(), stop, db, dataDir, onFailure };
  return { stop, next: () => job.nextRun() };
}
