/**
 * Issue 32, as the running server does it: the built-in schedule (every two seconds, keep 2) with
 * off-site copies to a real S3-compatible server (s3rver) started here, and a backup folder the
 * server cannot write, which the log names in one line and the console shows as a banner.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRemote, offsiteFrom } from "../../server/db/offsite.server";
import { parseEnv } from "../../server/env.server";
import { startS3 } from "../helpers/s3";
import { logMessages, serversPerTest, sessionCookie } from "../helpers/server";

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const { start } = serversPerTest();
let s3: Awaited<ReturnType<typeof startS3>>;
let s3env: Record<string, string> = {};

beforeAll(async () => {
  s3 = await startS3();
  s3env = s3.env("live/");
});
afterAll(async () => {
  await s3?.close();
});

/** Waits until `count()` reaches `n` (a scheduled run every two seconds: well within 30 s). */
async function until(count: () => number, n: number, what: string, output: () => string) {
  for (let i = 0; i < 300 && count() < n; i++) await new Promise((r) => setTimeout(r, 100));
  if (count() < n) throw new Error(`${what}: ${count()} of ${n}\n${output()}`);
}

const local = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".studio-backup"))
    .sort();

describe("the running server's backups", () => {
  it(
    "every two seconds with keep 2: exactly 2 on the machine and the same 2 in the bucket",
    { tags: ["slow"] },
    async () => {
      const dir = tmp("live-backups-");
      const server = await start({
        env: { BACKUP_CRON: "*/2 * * * * *", BACKUP_KEEP: "2", BACKUP_DIR: dir, STUDIO_TIMEZONE: "UTC", ...s3env },
      });
      expect(server.output()).toContain(`keeping 2 in ${dir} and in studio-backups`);
      const uploads = () => server.output().match(/\[backup\] uploaded to studio-backups: live\//g)?.length ?? 0;
      // Four runs: two beyond the number kept, in both places.
      await until(uploads, 4, "scheduled uploads", server.output);
      expect(await server.stop()).toEqual({ code: 0, signal: null });

      const here = local(dir);
      expect(here).toHaveLength(2);
      const remote = await listRemote(offsiteFrom(parseEnv(s3env))!);
      expect(remote.map((r) => r.name).sort()).toEqual(here);
      expect(remote.every((r) => r.key.startsWith("live/"))).toBe(true);
      // Owner-only, and what the bucket holds is byte for byte what the machine holds.
      for (const name of here) {
        const stat = fs.statSync(path.join(dir, name));
        expect(stat.mode & 0o777).toBe(0o600);
        expect(remote.find((r) => r.name === name)?.bytes).toBe(stat.size);
      }
    },
  );

  it("a backup folder it cannot write: one line per failed run that names the file in the way, and a banner in the console", async () => {
    // A path under a regular file cannot become a folder for anyone, root included.
    const blocker = path.join(tmp("blocked-"), "not-a-folder");
    fs.writeFileSync(blocker, "");
    const dir = path.join(blocker, "backups");
    const server = await start({ env: { BACKUP_CRON: "* * * * * *", BACKUP_DIR: dir, STUDIO_TIMEZONE: "UTC" } });
    const failures = () =>
      logMessages(server.output()).filter((m) => m.startsWith("[backup] the scheduled backup failed: "));
    await until(() => failures().length, 1, "a failed run", server.output);
    expect(failures()[0]).toBe(
      `[backup] the scheduled backup failed: cannot write the backup to ${dir}: ${blocker} is a file, not a folder (ENOTDIR)`,
    );
    // One clear line: no stack follows it (nor in it).
    expect(server.output()).not.toMatch(/^\s+at |\\n\s+at /m);

    const cookie = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    for (const tab of ["", "?tab=bookings"]) {
      const html = await (await fetch(`${server.url}/admin${tab}`, { headers: { cookie } })).text();
      expect(html).toContain("The last scheduled backup failed");
      expect(html).toContain(`${blocker} is a file, not a folder (ENOTDIR)`);
    }
  });
});
