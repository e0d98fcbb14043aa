/**
 * Issue 32, as the running server does it: the built-in schedule with off-site copies to a real
 * S3-compatible server (s3rver) started here, and a backup folder the server cannot write, which
 * the log names in one line and the console shows. The schedule runs at most hourly (issue 40.5),
 * so the runs themselves are watched in tests/integration/backup-schedule.test.ts (every second,
 * keep 2, the same 2 in the bucket); here the server takes the settings and backs up on demand.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRemote, offsiteFrom } from "../../server/db/offsite.server";
import { parseEnv } from "../../server/env.server";
import { startS3 } from "../helpers/s3";
import { logMessages, serversPerTest, sessionCookie } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "../..");
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

const local = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".studio-backup"))
    .sort();

async function trpc(server: { url: string }, cookie: string, procedure: string) {
  const res = await fetch(`${server.url}/api/trpc/${procedure}`, {
    method: "POST",
    body: "{}",
    headers: { "Content-Type": "application/json", Origin: server.url, Cookie: cookie },
  });
  return {
    status: res.status,
    json: (await res.json()) as { result?: { data: unknown }; error?: { message: string } },
  };
}

describe("the running server's backups", () => {
  it(
    "an hourly schedule with keep 2 and a bucket: said at start; the CLI's backups while it runs go to both places and are never rotated",
    { tags: ["slow"] },
    async () => {
      const dir = tmp("live-backups-");
      const env = { BACKUP_CRON: "0 * * * *", BACKUP_KEEP: "2", BACKUP_DIR: dir, STUDIO_TIMEZONE: "UTC", ...s3env };
      const server = await start({ env });
      expect(server.output()).toContain(`keeping 2 in ${dir} and in studio-backups`);
      // Three backups by hand while the server runs (keep 2): made by hand, none is rotated away.
      for (let i = 0; i < 3; i++) {
        // Not spawnSync: the bucket (s3rver) runs in this process and must answer the upload.
        await promisify(execFile)(process.execPath, ["server/cli-main.js", "backup"], {
          cwd: root,
          env: { PATH: process.env.PATH, NODE_ENV: "production", DATA_DIR: server.dataDir, ...env },
        });
      }
      const here = local(dir);
      expect(here).toHaveLength(3);
      // Made by hand (two in the same second are `-manual-2`: the CLI starts in well under one).
      expect(
        here.every((name) => /-manual(-\d+)?\.studio-backup$/.test(name)),
        here.join(", "),
      ).toBe(true);
      const remote = await listRemote(offsiteFrom(parseEnv(s3env))!);
      expect(remote.map((r) => r.name).sort()).toEqual(here);
      expect(remote.every((r) => r.key.startsWith("live/"))).toBe(true);
      // Owner-only, and what the bucket holds is byte for byte what the machine holds.
      for (const name of here) {
        const stat = fs.statSync(path.join(dir, name));
        expect(stat.mode & 0o777).toBe(0o600);
        expect(remote.find((r) => r.name === name)?.bytes).toBe(stat.size);
      }
      // The console's health shows the last of them, by name only, at its next probe (every 2 s:
      // three CLI backups can take less).
      const lastBackup = async () =>
        ((await (await fetch(`${server.url}/healthz`)).json()) as { lastBackup: { file: string } | null }).lastBackup;
      await expect.poll(lastBackup, { timeout: 10_000, interval: 250 }).not.toBeNull();
      expect(here).toContain((await lastBackup())!.file);
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    },
  );

  it("a schedule more often than hourly stops the server at start, in one line", async () => {
    await expect(start({ env: { BACKUP_CRON: "*/2 * * * * *" } })).rejects.toThrow(/BACKUP_CRON/);
  });

  it("a backup folder it cannot write: Back up now says which file is in the way, in one log line", async () => {
    // A path under a regular file cannot become a folder for anyone, root included.
    const blocker = path.join(tmp("blocked-"), "not-a-folder");
    fs.writeFileSync(blocker, "");
    const dir = path.join(blocker, "backups");
    const server = await start({ env: { BACKUP_DIR: dir, STUDIO_TIMEZONE: "UTC" } });
    const cookie = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const r = await trpc(server, cookie, "admin.backups.now");
    expect(r.status).toBe(500);
    expect(r.json.error?.message).toBe(
      `cannot write the backup to ${dir}: ${blocker} is a file, not a folder (ENOTDIR)`,
    );
    // Lines of the JSON log only: no raw stack printed outside it.
    for (const line of server.output().split("\n").filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
    expect(logMessages(server.output()).some((m) => m.includes(`${blocker} is a file, not a folder (ENOTDIR)`))).toBe(
      true,
    );
  });
});
