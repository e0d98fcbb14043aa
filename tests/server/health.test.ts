/**
 * /healthz tells the truth (issue 33.4): 200 with its JSON only while the database takes a write,
 * the disk has MIN_FREE_MB free and the data folder can be written; 503 naming the cause when the
 * data folder goes read-only (a read-only bind mount) or its small filesystem fills up. The
 * mounts need root; without it those tests are skipped with the reason.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { fillDisk, healthWhen, mountTmpfs } from "../helpers/disk";
import { serversPerTest, sessionCookie, tempDataDir } from "../helpers/server";

const { start } = serversPerTest();
const mounts: string[] = [];
afterEach(() => {
  for (const dir of mounts.splice(0).reverse()) {
    try {
      execFileSync("umount", [dir], { stdio: "pipe" });
    } catch {
      // already gone
    }
  }
});

/** Mounts (as root): answers the reason it cannot, or null. */
function mount(args: string[], dir: string): string | null {
  try {
    execFileSync("mount", [...args, dir], { stdio: "pipe" });
    mounts.push(dir);
    return null;
  } catch (error) {
    return `cannot mount here (${error instanceof Error ? error.message.split("\n")[0] : error}); needs root`;
  }
}

describe("/healthz", () => {
  it("answers 200 with the version, schema, uptime, free disk and last backup; the console shows the same", async () => {
    const server = await start();
    const health = await healthWhen(server.url, 200);
    expect(health).toMatchObject({ status: "ok", reason: null, version: "1.0.0", minFreeMb: 100, lastBackup: null });
    expect(health.schema).toBeGreaterThan(6);
    expect(health.freeMb).toBeGreaterThan(100);
    expect(health.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(health)).not.toContain(server.dataDir);
    const cookie = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const html = await (await fetch(`${server.url}/admin`, { headers: { cookie } })).text();
    expect(html).toContain(`Studio version 1.0.0`);
    expect(html).toMatch(/schema \d+ · healthy · up \d+ s · [\d,]+ MB free · no backup yet/);
  });

  it("with less free space than MIN_FREE_MB: 503, naming it, and the console's banner", async () => {
    const server = await start({ env: { MIN_FREE_MB: "100000000" } });
    const health = await healthWhen(server.url, 503);
    expect(health.status).toBe("failing");
    expect(health.reason).toMatch(/^the data folder's disk has \d+ MB free, less than MIN_FREE_MB \(100000000 MB\)$/);
    const cookie = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const html = await (await fetch(`${server.url}/admin?tab=bookings`, { headers: { cookie } })).text();
    expect(html).toContain("The server is failing its health check");
    expect(html).toContain("less than MIN_FREE_MB (100000000 MB)");
    expect(server.output()).toMatch(/\[healthz\] failing: the data folder's disk has \d+ MB free/);
  });

  it(
    "with the data folder read-only: 503 naming it, and 200 again once it is writable",
    { tags: ["slow"] },
    async (ctx) => {
      const dataDir = tempDataDir();
      const cannot = mount(["--bind", dataDir], dataDir);
      if (cannot) return ctx.skip(cannot);
      const server = await start({ dataDir });
      await healthWhen(server.url, 200);
      // The folder goes read-only under the running server. A mount with files open for writing
      // cannot be remounted read-only (EBUSY), so the server's mount is detached (its open database
      // keeps working) and a read-only one takes its place: every new file is refused (EROFS).
      const sh = (...args: string[]) => execFileSync(args[0], args.slice(1), { stdio: "pipe" });
      sh("umount", "-l", dataDir);
      sh("mount", "--bind", dataDir, dataDir);
      sh("mount", "-o", "remount,ro,bind", dataDir);
      const health = await healthWhen(server.url, 503);
      // Named in words: /healthz shows no path of this machine.
      expect(health.reason).toBe("the data folder cannot be written: the filesystem is read-only (EROFS)");
      sh("mount", "-o", "remount,rw,bind", dataDir);
      expect((await healthWhen(server.url, 200)).reason).toBeNull();
      expect(server.output()).toContain("[healthz] ok again");
    },
  );

  it("on a full small filesystem: 503 naming the full disk", { tags: ["slow"] }, async (ctx) => {
    const mounted = mountTmpfs("24m");
    if (!mounted.dir) return ctx.skip(mounted.reason);
    const dataDir = mounted.dir;
    mounts.push(dataDir);
    const server = await start({ dataDir, env: { MIN_FREE_MB: "2" } });
    await healthWhen(server.url, 200);
    const filler = fillDisk(dataDir);
    const health = await healthWhen(server.url, 503);
    expect(health.freeMb).toBe(0);
    expect(health.reason).toContain("the data folder's disk has 0 MB free, less than MIN_FREE_MB (2 MB)");
    expect(health.reason).toContain("cannot be written: the disk is full (ENOSPC)");
    fs.rmSync(filler);
    await healthWhen(server.url, 200);
  });
});
