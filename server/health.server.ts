import fs from "node:fs";
import path from "node:path";
import { env } from "./env.server";
import { getSqlite } from "./db/db.server";
import { KNOWN_MIGRATIONS, PRODUCT_VERSION } from "./db/backup.server";
import { LAST_BACKUP_FLAG } from "./db/backup-schedule.server";
import { log } from "./log.server";

/**
 * Whether the studio can do its work right now (issue 33.4), probed, not assumed: the database
 * takes a write (an immediate transaction that commits), the data folder's disk has MIN_FREE_MB
 * free, and a file can be written into the data folder. `/healthz` answers with it (200 or 503),
 * and the console shows the same. A probe runs at most every two seconds; answers in between
 * are the last one's.
 */
export type Health = {
  status: "ok" | "failing";
  /** What fails, in words; null when everything passes. */
  reason: string | null;
  version: string;
  schema: number;
  uptimeSeconds: number;
  freeMb: number | null;
  minFreeMb: number;
  /** When the last backup was made and its file's name (never its path). */
  lastBackup: { at: string; file: string } | null;
  checkedAt: string;
};

const PROBE_EVERY_MS = 2_000;

/** Checks other parts add (the replica's lag: server/boot.server.ts): each a problem in words, or null. */
const extraChecks = new Set<() => string | null>();
export function addHealthCheck(check: () => string | null): void {
  extraChecks.add(check);
}
let last: { at: number; health: Health } | undefined;

export function checkHealth(now = Date.now()): Health {
  if (last && now - last.at < PROBE_EVERY_MS) return last.health;
  const health = probe();
  // Said once when it starts failing (or fails differently), and once when it recovers.
  if (health.reason !== (last?.health.reason ?? null))
    if (health.reason) log.error(`[healthz] failing: ${health.reason}`);
    else if (last) log.info("[healthz] ok again");
  last = { at: now, health };
  return health;
}

function probe(): Health {
  const e = env();
  const problems: string[] = [];
  let lastBackup: Health["lastBackup"] = null;
  let sqlite: ReturnType<typeof getSqlite> | undefined;
  try {
    sqlite = getSqlite(e.DATA_DIR);
    sqlite
      .transaction(() =>
        sqlite!
          .prepare(
            "insert into studio_flags (key, value) values ('healthz', ?) on conflict (key) do update set value = excluded.value",
          )
          .run(new Date().toISOString()),
      )
      .immediate();
  } catch (error) {
    problems.push(`the database does not accept writes: ${describe(error)}`);
  }
  try {
    const raw = sqlite?.prepare("select value from studio_flags where key = ?").pluck().get(LAST_BACKUP_FLAG);
    if (typeof raw === "string") {
      const v = JSON.parse(raw) as { at?: unknown; file?: unknown };
      // The file by its name: an earlier version recorded its full path.
      if (typeof v.at === "string" && typeof v.file === "string")
        lastBackup = { at: v.at, file: path.basename(v.file) };
    }
  } catch {
    lastBackup = null;
  }
  let freeMb: number | null = null;
  try {
    const s = fs.statfsSync(e.DATA_DIR);
    freeMb = Math.floor((s.bavail * s.bsize) / 1048576);
    if (freeMb < e.MIN_FREE_MB)
      problems.push(`the data folder's disk has ${freeMb} MB free, less than MIN_FREE_MB (${e.MIN_FREE_MB} MB)`);
  } catch (error) {
    problems.push(`the free space of the data folder cannot be read: ${describe(error)}`);
  }
  for (const check of extraChecks) {
    const problem = check();
    if (problem) problems.push(problem);
  }
  const probeFile = path.join(e.DATA_DIR, `.healthz-${process.pid}`);
  try {
    // A few KB written and flushed: an empty file can still be made on a full disk.
    const fd = fs.openSync(probeFile, "w", 0o600);
    try {
      fs.writeSync(fd, Buffer.alloc(4096, 1));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    problems.push(`the data folder cannot be written: ${describe(error)}`);
  } finally {
    try {
      fs.rmSync(probeFile, { force: true });
    } catch {
      // Not a file of ours (a folder in its way): the failure above says so.
    }
  }
  return {
    status: problems.length ? "failing" : "ok",
    reason: problems.length ? problems.join("; ") : null,
    version: PRODUCT_VERSION,
    schema: KNOWN_MIGRATIONS.length,
    uptimeSeconds: Math.round(process.uptime()),
    freeMb,
    minFreeMb: e.MIN_FREE_MB,
    lastBackup,
    checkedAt: new Date().toISOString(),
  };
}

/**
 * What went wrong, in words, without a path of this machine (what /healthz answers is public):
 * a quoted absolute path becomes its last part.
 */
function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error instanceof Error ? error.message : String(error)).replace(
    /'(\/[^']*)'/g,
    (_, p: string) => `'${path.basename(p)}'`,
  );
  if (code === "EROFS" || /readonly|read-only/i.test(message))
    return `the filesystem is read-only (${code ?? "SQLITE_READONLY"})`;
  if (code === "ENOSPC" || /SQLITE_FULL|disk is full|database or disk is full/i.test(message))
    return `the disk is full (${code ?? "SQLITE_FULL"})`;
  if (code === "EACCES" || code === "EPERM") return `permission denied for this user (${code})`;
  return code ? `${message} (${code})` : message;
}
