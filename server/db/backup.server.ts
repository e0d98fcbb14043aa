import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sqliteNativeBinding } from "./db.server";

/**
 * An online, consistent copy of the database (SQLite's backup API, safe while the server runs)
 * plus a tarball of the storage folder next to it (`FILE.storage.tar.gz`).
 */
export async function backup(dataDir: string, file: string): Promise<{ db: string; storage: string | null }> {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const source = new SQLite(path.join(dataDir, "app.db"), {
    fileMustExist: true,
    nativeBinding: sqliteNativeBinding(),
  });
  try {
    source.pragma("busy_timeout = 5000");
    await source.backup(target);
  } finally {
    source.close();
  }
  const storageDir = path.join(dataDir, "storage");
  let storage: string | null = null;
  if (fs.existsSync(storageDir)) {
    storage = `${target}.storage.tar.gz`;
    execFileSync("tar", ["-czf", storage, "-C", dataDir, "storage"]);
  }
  return { db: target, storage };
}

/**
 * Restores a backup into DATA_DIR (stop the server first): the database file replaces app.db
 * (its WAL files are removed) and the storage tarball, when present, replaces storage/.
 */
export function restore(dataDir: string, file: string): { db: string; storage: boolean } {
  const source = path.resolve(file);
  const check = new SQLite(source, { readonly: true, fileMustExist: true, nativeBinding: sqliteNativeBinding() });
  try {
    const ok = check.pragma("integrity_check", { simple: true });
    if (ok !== "ok") throw new Error(`backup ${source} failed its integrity check: ${String(ok)}`);
  } finally {
    check.close();
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const dbFile = path.join(dataDir, "app.db");
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
  fs.copyFileSync(source, dbFile);
  const tarball = `${source}.storage.tar.gz`;
  if (fs.existsSync(tarball)) {
    fs.rmSync(path.join(dataDir, "storage"), { recursive: true, force: true });
    execFileSync("tar", ["-xzf", tarball, "-C", dataDir]);
    return { db: dbFile, storage: true };
  }
  return { db: dbFile, storage: false };
}
