import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { backup, restore } from "../../server/db/backup.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { freshDb } from "../helpers/db";

describe("backup and restore", () => {
  it("copy the live database and storage, and restore both into another data folder", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bak-")), "nightly.db");
    // The source stays open (as it is under a running server) while the backup runs.
    const r = await backup(t.dataDir, out);
    expect(r.storage).toBe(`${out}.storage.tar.gz`);
    const copy = new SQLite(out, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    expect((copy.prepare("select count(*) n from templates").get() as { n: number }).n).toBe(10);
    copy.close();

    const target = fs.mkdtempSync(path.join(os.tmpdir(), "restore-"));
    expect(restore(target, out)).toEqual({ db: path.join(target, "app.db"), storage: true });
    const restored = new SQLite(path.join(target, "app.db"), { readonly: true });
    expect((restored.prepare("select count(*) n from templates").get() as { n: number }).n).toBe(10);
    restored.close();
    expect(fs.existsSync(path.join(target, "storage", "template-files", "atelier.zip"))).toBe(true);
    fs.writeFileSync(`${out}.bad`, "not a database");
    expect(() => restore(target, `${out}.bad`)).toThrow();
    await t.close();
  });
});
