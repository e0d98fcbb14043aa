import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sqliteNativeBinding } from "./db.server";

/**
 * The checks a backup's parts go through (backup.server.ts): a file's SHA-256, a database file's
 * schema and integrity, and a folder a backup may be written to.
 */

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

export function sha256(file: string): string {
  const hash = crypto.createHash("sha256");
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
}

/** The schema a database file is at: its applied migrations (0 and null for an empty one). */
export function schemaOf(dbFile: string): { level: number; last: string | null } {
  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true, nativeBinding: sqliteNativeBinding() });
  try {
    const has = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!has) return { level: 0, last: null };
    const names = db.prepare("select name from kysely_migration order by name").pluck().all() as string[];
    return { level: names.length, last: names.at(-1) ?? null };
  } finally {
    db.close();
  }
}

export function integrityOk(dbFile: string): string {
  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true, nativeBinding: sqliteNativeBinding() });
  try {
    return String(db.pragma("integrity_check", { simple: true }));
  } finally {
    db.close();
  }
}

/** A folder made (with its parents) or the one line that says which and why not. */
export function ensureFolder(dir: string, what: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    const why =
      code === "EACCES" || code === "EPERM"
        ? "permission denied for this user"
        : code === "EROFS"
          ? "the filesystem is read-only"
          : code === "ENOSPC"
            ? "the disk is full"
            : code === "ENOTDIR"
              ? `${fileInTheWay(dir) ?? "a file"} is a file, not a folder`
              : (error as Error).message;
    throw new BackupError(`cannot write ${what} to ${dir}: ${why} (${code})`);
  }
}

/** The nearest existing part of `dir` that is not a folder (what ENOTDIR is about), if any. */
function fileInTheWay(dir: string): string | null {
  for (let p = path.resolve(dir); p !== path.dirname(p); p = path.dirname(p)) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(p);
    } catch {
      continue; // missing, or under the file in the way
    }
    return stat.isDirectory() ? null : p;
  }
  return null;
}
