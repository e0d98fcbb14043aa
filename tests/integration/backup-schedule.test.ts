import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  BACKUP_FAILURE_FLAG,
  LAST_BACKUP_FLAG,
  currentSchedule,
  rescheduleBackups,
  rotate,
  runScheduledBackup,
  savedSchedule,
  startBackupSchedule,
  stopBackupSchedule,
} from "../../server/db/backup-schedule.server";
import { parseEnv } from "../../server/env.server";
import { freshDb } from "../helpers/db";

// Issue 32.2: backups on a schedule, the newest BACKUP_KEEP kept, a failure told once.
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const backupsIn = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith(".studio-backup"));

describe("scheduled backups", () => {
  it("run every second with keep 2 and leave exactly the newest 2", async () => {
    const t = await freshDb();
    const dir = tmp("sched-");
    const runs: string[] = [];
    const job = startBackupSchedule(t.db, t.dataDir, { cron: "* * * * * *", keep: 2, dir, timezone: "UTC" });
    // Wait for the condition: four runs' files have come and the rotation has done its work.
    const seen = new Set<string>();
    await expect
      .poll(
        () => {
          for (const f of backupsIn(dir)) seen.add(f);
          runs.splice(0, runs.length, ...seen);
          return seen.size;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(4);
    job.stop();
    // A run in progress when stopped finishes; then the folder holds the newest two.
    await expect.poll(() => backupsIn(dir).length, { timeout: 5_000 }).toBe(2);
    expect(backupsIn(dir).sort()).toEqual([...seen].sort().slice(-2));
    const last = await t.db
      .selectFrom("studio_flags")
      .select("value")
      .where("key", "=", LAST_BACKUP_FLAG)
      .executeTakeFirst();
    expect(JSON.parse(last!.value).file).toMatch(/\.studio-backup$/);
    await t.close();
  });

  it("a failure is recorded and told once until a run succeeds; the rotation keeps other files", async () => {
    const t = await freshDb();
    const told: string[] = [];
    const blocked = path.join(tmp("blocked-"), "a-file");
    fs.writeFileSync(blocked, "");
    const plan = { cron: "off", keep: 2, dir: path.join(blocked, "backups"), timezone: "UTC" };
    for (let i = 0; i < 2; i++) {
      const r = await runScheduledBackup(t.db, t.dataDir, plan, async (m) => void told.push(m));
      expect(r).toMatchObject({ error: expect.stringContaining(`${blocked} is a file, not a folder (ENOTDIR)`) });
    }
    expect(told).toHaveLength(1);
    const failure = await t.db
      .selectFrom("studio_flags")
      .select("value")
      .where("key", "=", BACKUP_FAILURE_FLAG)
      .executeTakeFirst();
    expect(JSON.parse(failure!.value).message).toContain(plan.dir);
    const ok = await runScheduledBackup(t.db, t.dataDir, { ...plan, dir: tmp("ok-") });
    expect(ok).toHaveProperty("file");
    expect(
      await t.db.selectFrom("studio_flags").select("value").where("key", "=", BACKUP_FAILURE_FLAG).executeTakeFirst(),
    ).toBeUndefined();
    // Rotation touches only scheduled backups' names.
    const dir = tmp("rot-");
    for (const n of ["studio-2026-01-01T03-00-00Z", "studio-2026-01-02T03-00-00Z", "studio-2026-01-03T03-00-00Z"])
      fs.writeFileSync(path.join(dir, `${n}.studio-backup`), "");
    fs.writeFileSync(path.join(dir, "my-own.studio-backup"), "");
    expect(rotate(dir, 1)).toEqual([
      "studio-2026-01-01T03-00-00Z.studio-backup",
      "studio-2026-01-02T03-00-00Z.studio-backup",
    ]);
    expect(fs.readdirSync(dir).sort()).toEqual(["my-own.studio-backup", "studio-2026-01-03T03-00-00Z.studio-backup"]);
    await t.close();
  });

  it("the console's schedule is checked, saved, and replaces the running one at once", async () => {
    const t = await freshDb();
    const dir = tmp("console-");
    startBackupSchedule(t.db, t.dataDir, { cron: "off", keep: 7, dir, timezone: "UTC" });
    await expect(rescheduleBackups(t.db, { cron: "every night", keep: 3 })).rejects.toThrow(
      /^The schedule must be a cron expression such as "0 3 \* \* \*" \(or "off"\), got 'every night'/,
    );
    await expect(rescheduleBackups(t.db, { cron: "0 4 * * *", keep: 0 })).rejects.toThrow(
      "Keep a whole number of backups from 1 to 1,000",
    );
    expect(await savedSchedule(t.db)).toBeNull();
    const r = await rescheduleBackups(t.db, { cron: "* * * * * *", keep: 1 });
    expect(r.next).not.toBeNull();
    expect(await savedSchedule(t.db)).toEqual({ cron: "* * * * * *", keep: 1 });
    expect(currentSchedule()?.plan).toMatchObject({ cron: "* * * * * *", keep: 1, dir });
    // It runs on the new schedule, and keeps one.
    const seen = new Set<string>();
    await expect
      .poll(
        () => {
          for (const f of backupsIn(dir)) seen.add(f);
          return seen.size;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(2);
    stopBackupSchedule();
    await expect.poll(() => backupsIn(dir).length, { timeout: 5_000 }).toBe(1);
    await t.close();
  });

  it("BACKUP_CRON and BACKUP_KEEP are checked at start", () => {
    expect(parseEnv({ BACKUP_CRON: "off" }).BACKUP_CRON).toBe("off");
    expect(parseEnv({}).BACKUP_CRON).toBe("0 3 * * *");
    expect(parseEnv({}).BACKUP_KEEP).toBe(7);
    expect(() => parseEnv({ BACKUP_CRON: "every night" })).toThrow(/BACKUP_CRON must be a cron expression/);
    expect(() => parseEnv({ BACKUP_KEEP: "0" })).toThrow();
  });
});
