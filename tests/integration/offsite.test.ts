import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupNow } from "../../server/admin/backups.server";
import { runScheduledBackup } from "../../server/db/backup-schedule.server";
import { KNOWN_MIGRATIONS, restoreBackup } from "../../server/db/backup.server";
import { downloadRemote, listRemote, offsiteFrom, withVersions, type Offsite } from "../../server/db/offsite.server";
import { version as productVersion } from "../../package.json";
import { parseEnv } from "../../server/env.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { freshDb } from "../helpers/db";
import { startS3 } from "../helpers/s3";

// Issue 32.3: off-site copies to a real S3-compatible server (s3rver) started by the test.
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
let s3: Awaited<ReturnType<typeof startS3>>;

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

function offsite(extra: Record<string, string> = {}): Offsite {
  return offsiteFrom(parseEnv({ ...s3.env("nightly/"), ...extra }))!;
}

describe("off-site backups", () => {
  it("upload each scheduled backup, keep the same number there, and restore one into an empty folder", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const dir = tmp("local-");
    const o = offsite();
    for (let i = 0; i < 3; i++) {
      const r = await runScheduledBackup(
        t.db,
        t.dataDir,
        { cron: "off", keep: 2, dir, timezone: "UTC", offsite: o },
        undefined,
        new Date(Date.UTC(2026, 10, 20 + i, 3)),
      );
      expect(r).toHaveProperty("file");
    }
    const remote = await listRemote(o);
    expect(remote.map((r) => r.name)).toEqual([
      "studio-2026-11-22T03-00-00Z.studio-backup",
      "studio-2026-11-21T03-00-00Z.studio-backup",
    ]);
    expect(remote.every((r) => r.key.startsWith("nightly/") && r.bytes > 1000)).toBe(true);
    // What the console lists: each with the version and schema its upload recorded.
    expect(await withVersions(o, remote)).toEqual(
      remote.map((r) => ({ ...r, version: productVersion, schema: KNOWN_MIGRATIONS.length })),
    );
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".studio-backup"))).toHaveLength(2);

    // The machine is gone: the off-site copy alone brings the data back.
    const file = await downloadRemote(o, remote[0].name, tmp("from-s3-"));
    const target = tmp("restored-");
    await restoreBackup(target, file, { keepDir: path.join(target, "kept") });
    const db = new SQLite(path.join(target, "app.db"), { readonly: true });
    expect((db.prepare("select count(*) n from templates").get() as { n: number }).n).toBe(10);
    db.close();
    expect(fs.existsSync(path.join(target, "storage", "template-files", "atelier.zip"))).toBe(true);
    await t.close();
  });

  it("a failed upload is retried, then reported once, and the local backup is kept", async () => {
    const t = await freshDb();
    const dir = tmp("local-");
    const told: string[] = [];
    const wrong = offsite({ BACKUP_S3_BUCKET: "no-such-bucket" });
    const r = await runScheduledBackup(
      t.db,
      t.dataDir,
      { cron: "off", keep: 2, dir, timezone: "UTC", offsite: wrong },
      async (m) => void told.push(m),
    );
    expect(r).toMatchObject({ error: expect.stringContaining("uploading nightly/studio-") });
    expect((r as { error: string }).error).toContain("NoSuchBucket");
    expect(told).toHaveLength(1);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".studio-backup"))).toHaveLength(1);
    await t.close();
  });

  it("Back up now uploads to the bucket too, a manual backup that the bucket's rotation keeps", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const dir = tmp("local-");
    const o = offsite({ BACKUP_S3_PREFIX: "console/" });
    const first = await backupNow(t.db, t.dataDir, dir, 1, o);
    const second = await backupNow(t.db, t.dataDir, dir, 1, o);
    expect(first.uploaded).toBe(`console/${first.name}`);
    expect(second.uploaded).toBe(`console/${second.name}`);
    // A scheduled run that keeps one there leaves both manual backups in the bucket.
    await runScheduledBackup(t.db, t.dataDir, { cron: "off", keep: 1, dir, timezone: "UTC", offsite: o });
    const names = (await listRemote(o)).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining([first.name, second.name]));
    expect(
      names.filter((n) => n.endsWith("-manual.studio-backup") || /-manual-\d+\.studio-backup$/.test(n)),
    ).toHaveLength(2);
    await t.close();
  });

  it("the settings come as a set", () => {
    expect(() => parseEnv({ BACKUP_S3_ENDPOINT: "http://127.0.0.1:9000", BACKUP_S3_BUCKET: "b" })).toThrow(
      "Off-site backups need BACKUP_S3_ENDPOINT, BACKUP_S3_BUCKET, BACKUP_S3_ACCESS_KEY_ID, BACKUP_S3_SECRET_ACCESS_KEY together: BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY are missing",
    );
    expect(offsiteFrom(parseEnv({}))).toBeNull();
  });
});
