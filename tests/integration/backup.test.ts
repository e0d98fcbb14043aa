import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  BackupError,
  createBackup,
  KNOWN_MIGRATIONS,
  restoreBackup,
  verifyBackup,
} from "../../server/db/backup.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { freshDb } from "../helpers/db";

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const count = (dbFile: string, table: string) => {
  const db = new SQLite(dbFile, { readonly: true });
  try {
    return (db.prepare(`select count(*) n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("backup and restore (issue 32)", () => {
  it("write one checked file, owner-only, and restore database and files together into an empty folder", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const dir = tmp("bak-");
    // The source stays open (as it is under a running server) while the backup runs.
    const { file, manifest } = await createBackup(t.dataDir, { defaultDir: path.join(dir, "nested", "backups") });
    expect(path.dirname(file)).toBe(path.join(dir, "nested", "backups"));
    expect(path.basename(file)).toMatch(/^studio-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-manual\.studio-backup$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(manifest).toMatchObject({
      product: "studio",
      format: 1,
      version: "1.0.0",
      reason: "manual",
      schema: { level: KNOWN_MIGRATIONS.length, last: KNOWN_MIGRATIONS.at(-1) },
    });
    expect(manifest.parts["app.db"].sha256).toMatch(/^[0-9a-f]{64}$/);
    // Nothing half-written is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);

    const target = tmp("restore-");
    const r = await restoreBackup(target, file, { keepDir: path.join(target, "kept") });
    expect(r).toMatchObject({ kept: null, storage: true, manifest: { version: "1.0.0" } });
    expect(count(path.join(target, "app.db"), "templates")).toBe(10);
    expect(fs.existsSync(path.join(target, "storage", "template-files", "atelier.zip"))).toBe(true);
    expect(fs.readdirSync(target).filter((n) => n.startsWith(".restore-tmp"))).toEqual([]);
    await t.close();
  });

  it("two backups in the same second are two files: the second never replaces the first", async () => {
    const t = await freshDb();
    const dir = tmp("same-second-");
    const now = new Date("2026-11-25T10:00:00.000Z");
    const a = await createBackup(t.dataDir, { defaultDir: dir, now });
    const b = await createBackup(t.dataDir, { defaultDir: dir, now: new Date(now.getTime() + 500) });
    expect(path.basename(a.file)).toBe("studio-2026-11-25T10-00-00Z-manual.studio-backup");
    expect(path.basename(b.file)).toBe("studio-2026-11-25T10-00-00Z-manual-2.studio-backup");
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(a.file), path.basename(b.file)].sort());
    await verifyBackup(a.file);
    await verifyBackup(b.file);
    await t.close();
  });

  it("keeps what a restore replaces as a backup first", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const { file } = await createBackup(t.dataDir, { defaultDir: tmp("bak-") });
    const target = tmp("restore-");
    fs.writeFileSync(path.join(target, "marker.txt"), "");
    const other = await freshDb();
    fs.copyFileSync(other.file, path.join(target, "app.db"));
    fs.mkdirSync(path.join(target, "storage", "mine"), { recursive: true });
    fs.writeFileSync(path.join(target, "storage", "mine", "only-here.txt"), "mine");
    const r = await restoreBackup(target, file, { keepDir: path.join(target, "kept") });
    expect(r.kept).toMatch(/-before-restore\.studio-backup$/);
    const kept = await verifyBackup(r.kept!);
    expect(kept.reason).toBe("before-restore");
    // The files are the backup's now; the replaced ones are in the kept backup.
    expect(fs.existsSync(path.join(target, "storage", "mine"))).toBe(false);
    const unpacked = tmp("kept-");
    execFileSync("tar", ["-xf", r.kept!, "-C", unpacked]);
    execFileSync("tar", ["-xzf", path.join(unpacked, "storage.tar.gz"), "-C", unpacked]);
    expect(fs.readFileSync(path.join(unpacked, "storage", "mine", "only-here.txt"), "utf8")).toBe("mine");
    await t.close();
    await other.close();
  });

  it("refuses a damaged backup by its checksum, and one made by a newer schema naming both, changing nothing", async () => {
    const t = await freshDb();
    const { file } = await createBackup(t.dataDir, { defaultDir: tmp("bak-") });
    const target = tmp("restore-");
    const existing = await freshDb();
    fs.copyFileSync(existing.file, path.join(target, "app.db"));
    const before = fs.readFileSync(path.join(target, "app.db"));

    // One byte of the database changed inside the archive.
    const work = tmp("tamper-");
    execFileSync("tar", ["-xf", file, "-C", work]);
    const db = fs.readFileSync(path.join(work, "app.db"));
    db[db.length - 100] ^= 0xff;
    fs.writeFileSync(path.join(work, "app.db"), db);
    const damaged = path.join(work, "damaged.studio-backup");
    execFileSync("tar", ["-cf", damaged, "-C", work, "manifest.json", "app.db", "storage.tar.gz"]);
    await expect(restoreBackup(target, damaged, { keepDir: tmp("kept-") })).rejects.toThrow(
      "is damaged: its app.db does not match its checksum",
    );

    // A schema this version does not know.
    const newer = tmp("newer-");
    execFileSync("tar", ["-xf", file, "-C", newer]);
    const sqlite = new SQLite(path.join(newer, "app.db"));
    sqlite
      .prepare("insert into kysely_migration (name, timestamp) values ('2099_01_01_0000_from_the_future', 'x')")
      .run();
    sqlite.close();
    const manifest = JSON.parse(fs.readFileSync(path.join(newer, "manifest.json"), "utf8"));
    const crypto = await import("node:crypto");
    const bytes = fs.readFileSync(path.join(newer, "app.db"));
    manifest.parts["app.db"] = { bytes: bytes.length, sha256: crypto.createHash("sha256").update(bytes).digest("hex") };
    manifest.schema = { level: KNOWN_MIGRATIONS.length + 1, last: "2099_01_01_0000_from_the_future" };
    fs.writeFileSync(path.join(newer, "manifest.json"), JSON.stringify(manifest));
    const future = path.join(newer, "future.studio-backup");
    execFileSync("tar", ["-cf", future, "-C", newer, "manifest.json", "app.db", "storage.tar.gz"]);
    await expect(restoreBackup(target, future, { keepDir: tmp("kept-") })).rejects.toThrow(
      `was made by a newer version (schema ${KNOWN_MIGRATIONS.length + 1}, 2099_01_01_0000_from_the_future); this version 1.0.0 knows schema ${KNOWN_MIGRATIONS.length} (${KNOWN_MIGRATIONS.at(-1)})`,
    );
    expect(fs.readFileSync(path.join(target, "app.db")).equals(before)).toBe(true);
    await t.close();
    await existing.close();
  });

  it("refuses to restore under a process holding the data folder, and names an unwritable backup folder in one line", async () => {
    const t = await freshDb();
    const { file } = await createBackup(t.dataDir, { defaultDir: tmp("bak-") });
    const target = tmp("held-");
    // Another process holds the lock, as a running server does: a child that takes it and waits.
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const S = require("better-sqlite3"); const db = new S(${JSON.stringify(path.join(target, ".studio.lock"))});
         db.pragma("locking_mode = EXCLUSIVE"); db.exec("create table if not exists holder (pid integer)");
         db.prepare("insert into holder values (?)").run(process.pid);
         require("fs").writeFileSync(${JSON.stringify(path.join(target, ".studio.pid"))}, process.pid + "\\n");
         process.stdout.write("held"); process.stdin.resume();`,
      ],
      { cwd: process.cwd(), stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    await expect(restoreBackup(target, file, { keepDir: tmp("kept-") })).rejects.toThrow(
      `the studio is running (pid ${child.pid}); stop it first`,
    );
    expect(fs.existsSync(path.join(target, "app.db"))).toBe(false);
    // Once it has ended (however it ended), its lock is gone with it.
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    await expect(restoreBackup(target, file, { keepDir: tmp("kept-") })).resolves.toMatchObject({ kept: null });
    expect(count(path.join(target, "app.db"), "users")).toBe(0);
    const readOnly = tmp("ro-");
    fs.chmodSync(readOnly, 0o500);
    const isRoot = process.getuid?.() === 0;
    if (!isRoot) {
      await expect(createBackup(t.dataDir, { defaultDir: path.join(readOnly, "backups") })).rejects.toThrow(
        `cannot write the backup to ${path.join(readOnly, "backups")}: permission denied for this user (EACCES)`,
      );
    }
    await expect(createBackup(t.dataDir, { defaultDir: path.join(file, "inside-a-file") })).rejects.toBeInstanceOf(
      BackupError,
    );
    await t.close();
  });
});
