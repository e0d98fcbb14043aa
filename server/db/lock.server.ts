import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sqliteNativeBinding } from "./db.server";

/**
 * The data folder's lock (issue 32.5): a running server holds an exclusive lock on
 * `DATA_DIR/.studio.lock` (a small SQLite file in exclusive locking mode, so the lock is the
 * operating system's: it ends with the process, even one that is killed) and writes its pid beside
 * it. A command that must not run beside a server (restore) asks `dataFolderHolder`, which answers
 * for certain: the lock is held or it is not; the pid file only names who holds it.
 */

const LOCK_FILE = ".studio.lock";
const PID_FILE = ".studio.pid";

let held: { dataDir: string; sqlite: SQLite.Database } | undefined;

/** Takes the data folder's lock for this process; throws with the holder's pid when another has it. */
export function holdDataFolder(dataDir: string): void {
  if (held?.dataDir === dataDir) return;
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, LOCK_FILE), { nativeBinding: sqliteNativeBinding(), timeout: 0 });
  try {
    sqlite.pragma("locking_mode = EXCLUSIVE");
    // An exclusive transaction takes the exclusive lock, and exclusive locking mode keeps it until
    // this connection closes. Nothing is written: three small commits here were six fsyncs of every
    // start, at times 100 ms and more on a busy disk (issue 42.4); the pid is in PID_FILE.
    sqlite.exec("begin exclusive; commit");
  } catch (error) {
    sqlite.close();
    if (isBusy(error)) throw new Error(runningMessage(dataDir));
    throw error;
  }
  fs.writeFileSync(path.join(dataDir, PID_FILE), `${process.pid}\n`, { mode: 0o600 });
  held = { dataDir, sqlite };
}

/** Lets the lock go (at shutdown). */
export function releaseDataFolder(): void {
  if (!held) return;
  const { dataDir, sqlite } = held;
  held = undefined;
  sqlite.close();
  fs.rmSync(path.join(dataDir, PID_FILE), { force: true });
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

function pidOf(dataDir: string): string {
  try {
    return fs.readFileSync(path.join(dataDir, PID_FILE), "utf8").trim() || "unknown";
  } catch {
    return "unknown";
  }
}

export function runningMessage(dataDir: string): string {
  return `the studio is running (pid ${pidOf(dataDir)}); stop it first`;
}

/**
 * Whether another process holds the data folder (null when none does): tried without waiting, on
 * the lock itself. This process's own lock does not count.
 */
export function dataFolderHolder(dataDir: string): string | null {
  if (held?.dataDir === dataDir) return null;
  const file = path.join(dataDir, LOCK_FILE);
  if (!fs.existsSync(file)) return null;
  const sqlite = new SQLite(file, { nativeBinding: sqliteNativeBinding(), timeout: 0 });
  try {
    sqlite.prepare("select count(*) from sqlite_master").get();
    return null;
  } catch (error) {
    if (isBusy(error)) return runningMessage(dataDir);
    throw error;
  } finally {
    sqlite.close();
  }
}
