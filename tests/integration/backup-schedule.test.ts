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
import { backupNow, listBackups } from "../../server/admin/backups.server";
import { createBackup } from "../../server/db/backup.server";
import { parseEnv } from "../../server/env.server";
import { listRemote, offsiteFrom } from "../../server/db/offsite.server";
import { freshDb } from "../helpers/db";
import { startS3 } from "../helpers/s3";

// Issue 32.2: backups on a schedule, the newest BACKUP_KEEP kept, a failure told once.
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const backupsIn = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith(".studio-backup"));

describe("scheduled backups", () => {
  it("run every second with keep 2 and leave exactly the newest 2, on the machine and the same 2 in the bucket", async () => {
    const t = await freshDb();
    const dir = tmp("sched-");
    const runs: string[] = [];
    // Every second: the rule of at most hourly holds at the ways in (BACKUP_CRON, the console),
    // not in the scheduler, so this test can watch four runs go by.
    const s3 = await startS3();
    const offsite = offsiteFrom(parseEnv(s3.env("sched/")))!;
    const job = startBackupSchedule(t.db, t.dataDir, { cron: "* * * * * *", keep: 2, dir, timezone: "UTC", offsite });
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
    // The bucket holds the same two, byte for byte (its rotation follows each upload).
    await expect
      .poll(async () => (await listRemote(offsite)).map((r) => r.name).sort(), { timeout: 5_000 })
      .toEqual(backupsIn(dir).sort());
    for (const r of await listRemote(offsite)) expect(r.bytes).toBe(fs.statSync(path.join(dir, r.name)).size);
    await s3.close();
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
    const before = Date.now();
    const r = await rescheduleBackups(t.db, { cron: "0 * * * *", keep: 1 });
    // The next run is at the next full hour: the new schedule runs from now on.
    const hour = 3_600_000;
    expect(r.next!.getTime()).toBe(Math.floor(before / hour) * hour + hour);
    expect(await savedSchedule(t.db)).toEqual({ cron: "0 * * * *", keep: 1 });
    expect(currentSchedule()?.plan).toMatchObject({ cron: "0 * * * *", keep: 1, dir });
    expect(currentSchedule()?.next?.getTime()).toBe(r.next!.getTime());
    stopBackupSchedule();
    expect(currentSchedule()).toBeUndefined();
    await t.close();
  });

  it("a cron of other than five fields, or more often than hourly, is refused naming the problem, at start and in the console", async () => {
    for (const ok of ["0 * * * *", "30 */2 * * *", "0 3 * * 1-5", "15 3 1 * *", "off"]) {
      expect(parseEnv({ BACKUP_CRON: ok }).BACKUP_CRON, ok).toBe(ok);
    }
    expect(() => parseEnv({ BACKUP_CRON: "* * * * * *" })).toThrow(
      `BACKUP_CRON must be a cron expression such as "0 3 * * *" (or "off"), got '* * * * * *': it has 6 fields, not the 5 of minute hour day month weekday`,
    );
    expect(() => parseEnv({ BACKUP_CRON: "0 0 3 * * *" })).toThrow(/got '0 0 3 \* \* \*': it has 6 fields, not the 5/);
    expect(() => parseEnv({ BACKUP_CRON: "@hourly" })).toThrow(/got '@hourly': it has 1 field, not the 5/);
    for (const often of ["* * * * *", "*/15 * * * *", "0,30 * * * *", "0-5 3 * * *"]) {
      expect(() => parseEnv({ BACKUP_CRON: often }), often).toThrow(
        `BACKUP_CRON runs more often than hourly: '${often}' has more than one minute in its first field; backups run at most once an hour, e.g. "0 * * * *"`,
      );
    }
    const t = await freshDb();
    startBackupSchedule(t.db, t.dataDir, { cron: "off", keep: 7, dir: tmp("console-"), timezone: "UTC" });
    await expect(rescheduleBackups(t.db, { cron: "* * * * * *", keep: 3 })).rejects.toThrow(
      /^The schedule must be a cron expression such as "0 3 \* \* \*" \(or "off"\), got '\* \* \* \* \* \*': it has 6 fields/,
    );
    await expect(rescheduleBackups(t.db, { cron: "* * * * *", keep: 3 })).rejects.toThrow(
      /^The schedule runs more often than hourly: '\* \* \* \* \*'/,
    );
    expect(await savedSchedule(t.db)).toBeNull();
    // One saved before these rules is not taken at the next start: BACKUP_CRON is.
    await t.db
      .insertInto("studio_flags")
      .values({ key: "backup_schedule", value: '{"cron":"* * * * * *","keep":2}' })
      .execute();
    expect(await savedSchedule(t.db)).toBeNull();
    stopBackupSchedule();
    await t.close();
  });

  it("rotation removes only scheduled backups: one made by hand (console or CLI) is never rotated away", async () => {
    const t = await freshDb();
    const dir = tmp("mixed-");
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 3));
    // The CLI's `studio backup` (no file given) and the console's "Back up now", with keep 1.
    const cli = await createBackup(t.dataDir, { defaultDir: dir, now: day(1) });
    const fromConsole = await backupNow(t.db, t.dataDir, dir, 1);
    // One made by hand by an earlier version, named as scheduled ones were.
    const legacy = await createBackup(t.dataDir, {
      target: path.join(dir, "studio-2026-11-02T09-00-00Z.studio-backup"),
      defaultDir: dir,
    });
    for (const d of [3, 4, 5])
      await runScheduledBackup(t.db, t.dataDir, { cron: "off", keep: 1, dir, timezone: "UTC" }, undefined, day(d));
    const rows = listBackups(dir);
    expect(rows.filter((r) => r.reason === "scheduled").map((r) => r.name)).toEqual([
      "studio-2026-11-05T03-00-00Z.studio-backup",
    ]);
    expect(
      rows
        .filter((r) => r.reason === "manual")
        .map((r) => r.name)
        .sort(),
    ).toEqual([path.basename(cli.file), path.basename(legacy.file), fromConsole.name].sort());
    expect(path.basename(cli.file)).toBe("studio-2026-11-01T03-00-00Z-manual.studio-backup");
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
