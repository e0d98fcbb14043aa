import path from "node:path";
import Database from "better-sqlite3";

/** The data folder of the server under test. */
export function e2eDataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set (run through playwright.config.ts)");
  return dir;
}

/** Runs a query against the app database of the server under test. */
export function e2eQuery<T = Record<string, unknown>>(sqlText: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(e2eDataDir(), "app.db"), { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(sqlText).all(...params) as T[];
  } finally {
    db.close();
  }
}
