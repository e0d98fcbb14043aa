/**
 * The last backup, however it was made: one written by `studio backup` (`npm run backup`) shows in
 * /healthz and the console like the server's own, and /healthz names files and the data folder
 * without their paths on this machine.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loader as healthz } from "../../app/routes/healthz";
import { backupStatus } from "../../server/admin/backups.server";
import { db } from "../../server/db.server";
import { LAST_BACKUP_FLAG } from "../../server/db/backup-schedule.server";
import { migrateToLatest } from "../../server/db/db.server";
import { env } from "../../server/env.server";
import { cli } from "../helpers/cli";
import { addHealthCheck, checkHealth } from "../../server/health.server";

/** A fresh probe each time (they are kept for 2 s otherwise). */
let clock = Date.now();
const probe = () => checkHealth((clock += 10_000));

beforeAll(async () => {
  await migrateToLatest(db());
});

describe("the last backup", () => {
  it("a backup made with the CLI is the last backup in /healthz and the console, by its file name only", async () => {
    const r = await cli("backup");
    expect(r.code).toBe(0);
    const file = /^backup written: (\S+) /.exec(r.out)![1];
    expect(path.dirname(file)).toBe(path.join(env().DATA_DIR, "backups"));
    const res = await healthz();
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text).lastBackup).toEqual({ at: expect.any(String), file: path.basename(file) });
    // Nothing in it names a place on this machine.
    expect(text).not.toContain(env().DATA_DIR);
    expect(text).not.toMatch(/"\/[^"]*"/);
    expect((await backupStatus(db(), undefined)).last).toMatchObject({ file: path.basename(file) });
  });

  it("one recorded by an earlier version with its full path shows by its file name", async () => {
    const value = JSON.stringify({
      at: "2026-11-20T03:00:00.000Z",
      file: "/srv/studio/data/backups/studio-x.studio-backup",
    });
    await db()
      .insertInto("studio_flags")
      .values({ key: LAST_BACKUP_FLAG, value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
    expect(probe().lastBackup).toEqual({ at: "2026-11-20T03:00:00.000Z", file: "studio-x.studio-backup" });
  });

  it("a failing probe says what fails without the data folder's path", () => {
    // The probe's own file cannot be written: a folder stands in its place.
    const inTheWay = path.join(env().DATA_DIR, `.healthz-${process.pid}`);
    fs.mkdirSync(path.join(inTheWay, "x"), { recursive: true });
    try {
      const h = probe();
      expect(h.status).toBe("failing");
      expect(h.reason).toMatch(/^the data folder cannot be written: /);
      expect(JSON.stringify(h)).not.toContain(env().DATA_DIR);
    } finally {
      fs.rmSync(inTheWay, { recursive: true, force: true });
    }
    expect(probe().status).toBe("ok");
  });

  it("fails with a part's own problem (the replica's lag, registered at boot) and recovers with it", async () => {
    let problem: string | null =
      "the replica file:///mnt/replica has been more than 60 s behind for 5 minutes (362 s now)";
    addHealthCheck(() => problem);
    const h = probe();
    expect(h.status).toBe("failing");
    expect(h.reason).toBe(problem);
    const answer = await healthz();
    expect((answer as Response).status).toBe(503);
    problem = null;
    expect(probe().status).toBe("ok");
  });
});
