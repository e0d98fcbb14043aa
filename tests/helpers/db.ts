import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, migrateToLatest, type DB } from "../../server/db/db.server";

let templateFile: string | null = null;

/** A migrated SQLite file made once per test process, copied for each test. */
async function migratedTemplate(): Promise<string> {
  if (templateFile) return templateFile;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-dbtpl-"));
  const file = path.join(dir, "template.db");
  const { db, sqlite } = createDb(file);
  await migrateToLatest(db);
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  await db.destroy();
  templateFile = file;
  return file;
}

export type TestDb = { db: DB; dataDir: string; file: string; close: () => Promise<void> };

/** A fresh database (copied from the migrated template) in its own data folder. */
export async function freshDb(): Promise<TestDb> {
  const tpl = await migratedTemplate();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-test-"));
  const file = path.join(dataDir, "app.db");
  fs.copyFileSync(tpl, file);
  const { db } = createDb(file);
  return {
    db,
    dataDir,
    file,
    close: async () => {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
