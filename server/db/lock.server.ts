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
  const file = path.join(dataDir, LOCK_FILE);
  let sqlite: SQLite.Database;
  try {
    sqlite = lockedConnection(file);
  } catch (error) {
    if (isBusy(error)) throw new Error(runningMessage(dataDir));
    // Not a database: a first start cut off while it wrote the file's header (it is written without
    // waiting for the disk, below). Nobody can hold such a file: it is made again.
    if (!isNotADatabase(error)) throw error;
    fs.rmSync(file, { force: true });
    sqlite = lockedConnection(file);
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

/**
 * A connection holding `file`'s exclusive lock: an exclusive transaction takes it and exclusive
 * locking mode keeps it until the connection closes. Nothing is written but the header of a new
 * file, without waiting for the disk (synchronous off): three small commits here were six fsyncs
 * of every first start, at times over 100 ms on a busy disk (issue 42.4). The pid is in PID_FILE.
 */
function lockedConnection(file: string): SQLite.Database {
  const sqlite = new SQLite(file, { nativeBinding: sqliteNativeBinding(), timeout: 0 });
  try {
    sqlite.pragma("locking_mode = EXCLUSIVE");
    sqlite.pragma("synchronous = OFF");
    sqlite.exec("begin exclusive; commit");
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

const isNotADatabase = (error: unknown) => /^SQLITE_(NOTADB|CORRUPT)/.test((error as { code?: string }).code ?? "");

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
    if (isNotADatabase(error)) return null; // No process holds a file that is not a database.
    throw error;
  } finally {
    sqlite.close();
  }
}
