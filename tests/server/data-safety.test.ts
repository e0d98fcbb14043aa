/**
 * What an operator relies on: `npm run backup` writing one file (database snapshot, files,
 * manifest) while visitors book, `npm run restore` refused under a running server and bringing
 * that backup back into a data folder a server then runs on, and
 * oversized request bodies refused before they are read.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cloneDraft,
  httpVisitor,
  queryDb,
  serversPerTest,
  startServer,
  tempDataDir,
  type RunningServer,
} from "../helpers/server";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const { start } = serversPerTest();

/** The server visitors book on while it is backed up, and that refuses oversized bodies. */
let server: RunningServer;
beforeAll(async () => {
  // Hundreds of bookings confirmed at once: a studio booking through Calendly, so no two of them
  // compete for one time of the built-in calendar (tests/integration/builtin-calls.test.ts has that).
  server = await startServer({ env: { CALENDLY_URL: "https://calendly.com/studio-test/consultation" } });
});
afterAll(async () => {
  await server?.stop();
});

/** `npm run <script> -- file` as the operator types it, for the given data folder. */
function npmRun(script: "backup" | "restore", file: string, dataDir: string) {
  return run("npm", ["run", "-s", script, "--", file], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), DATA_DIR: dataDir, NODE_ENV: "production" },
  });
}

describe("backup and restore from the command line", () => {
  it("backs up online while bookings are confirmed, and the restored copy serves every booking acknowledged before", async () => {
    const visitor = httpVisitor(server.url, "192.0.2.10");
    await visitor.fillSteps("backup@example.com");
    const cookies = await cloneDraft(server.dataDir, visitor.cookie, 400);

    // 30 bookings acknowledged before the backup starts.
    const before = await Promise.all(cookies.splice(0, 30).map((c, i) => confirmAs(server, c, i)));
    expect(before.every((s) => s === 302)).toBe(true);
    const acknowledgedBefore = queryDb<{ id: string }>(server.dataDir, "select id from bookings").map((r) => r.id);
    expect(acknowledgedBefore).toHaveLength(30);

    // The backup runs while four visitors at a time keep confirming.
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "studio-backup-")), "nightly.studio-backup");
    let backingUp = true;
    let confirmedDuring = 0;
    const worker = async (w: number) => {
      for (let i = w; backingUp && i < cookies.length; i += 4) {
        expect(await confirmAs(server, cookies[i], 100 + i)).toBe(302);
        if (backingUp) confirmedDuring++;
      }
    };
    const workers = Promise.all([0, 1, 2, 3].map(worker));
    const { stdout } = await npmRun("backup", out, server.dataDir).finally(() => (backingUp = false));
    await workers;
    expect(confirmedDuring).toBeGreaterThan(0);
    expect(stdout).toContain(`backup written: ${out}`);
    // One file: the manifest, the database snapshot and the files.
    const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "studio-backup-unpacked-"));
    execFileSync("tar", ["-xf", out, "-C", unpacked]);
    expect(fs.readdirSync(unpacked).sort()).toEqual(["app.db", "manifest.json", "storage.tar.gz"]);

    const copy = new SQLite(path.join(unpacked, "app.db"), { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const n = (copy.prepare("select count(*) n from bookings").get() as { n: number }).n;
      expect(n).toBeGreaterThanOrEqual(30);
      expect(n).toBeLessThanOrEqual(30 + confirmedDuring + 4);
    } finally {
      copy.close();
    }

    // Restore into another data folder and run a server on it.
    const target = tempDataDir();
    // Refused while the first server holds its own data folder; its data untouched.
    const refused = await npmRun("restore", out, server.dataDir).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain(`restore refused: the studio is running (pid ${server.proc.pid}); stop it first`);
    const restored = await npmRun("restore", out, target);
    expect(restored.stdout).toContain("the database with its storage");
    const second = await start({ dataDir: target });
    const restoredIds = new Set(queryDb<{ id: string }>(target, "select id from bookings").map((r) => r.id));
    for (const id of acknowledgedBefore) expect(restoredIds.has(id), `booking ${id}`).toBe(true);
    // The catalogue and its files came back too: a template page and its preview image are served.
    const page = await fetch(`${second.url}/templates/atelier`);
    expect(page.status).toBe(200);
    const img = /src="(\/files\/template-images\/[^"]+)"/.exec(await page.text())?.[1];
    expect(img).toBeTruthy();
    expect((await fetch(second.url + img)).status).toBe(200);
  });

  it("refuses to restore a file that is not a backup, leaving the data folder as it was", async () => {
    const target = tempDataDir();
    const bad = path.join(target, "..", `not-a-db-${Date.now()}.db`);
    fs.writeFileSync(bad, "this is not a database");
    await expect(npmRun("restore", bad, target)).rejects.toThrow();
    expect(fs.existsSync(path.join(target, "app.db"))).toBe(false);
  });
});

async function confirmAs(server: RunningServer, cookie: string, i: number) {
  const v = httpVisitor(server.url, `10.9.${i >> 8}.${i & 255}`);
  v.cookie = cookie;
  // The studio books through Calendly (beforeAll): the confirm as its page posts it.
  return (await v.post(6, { intent: "confirm" })).status;
}

describe("bodies over the limit are refused with 413 before they are read", () => {
  const cases = [
    {
      name: "booking upload step (50 MB of files at most)",
      path: "/booking?index&step=5",
      type: "multipart/form-data; boundary=x",
      bytes: 60 * 1024 * 1024,
    },
    {
      name: "admin image upload",
      path: "/admin/upload?bucket=template-images",
      type: "multipart/form-data; boundary=x",
      bytes: 90 * 1024 * 1024,
    },
    {
      name: "admin template file upload",
      path: "/admin/upload?bucket=template-files",
      type: "multipart/form-data; boundary=x",
      bytes: 200 * 1024 * 1024,
    },
    {
      name: "magic-link request",
      path: "/auth/email",
      type: "application/x-www-form-urlencoded",
      bytes: 2 * 1024 * 1024,
    },
    { name: "tRPC mutation", path: "/api/trpc/checkout.create", type: "application/json", bytes: 2 * 1024 * 1024 },
    {
      name: "booking details step",
      path: "/booking?index&step=1",
      type: "application/x-www-form-urlencoded",
      bytes: 2 * 1024 * 1024,
    },
  ];
  it.each(cases)("$name", async ({ path: p, type, bytes }) => {
    // Only the headers go out: the answer must come without the declared body ever being sent.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: server.port,
          method: "POST",
          path: p,
          headers: { Origin: server.url, "Content-Type": type, "Content-Length": String(bytes) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.flushHeaders();
      // Not a time limit on the answer: without the body, a server that waits for it never
      // answers, and this turns that hang into a readable failure (generous for a busy host).
      setTimeout(() => reject(new Error("no answer within 10 s: the server is waiting for the body")), 10_000).unref();
    });
    expect(status).toBe(413);
  });
});
