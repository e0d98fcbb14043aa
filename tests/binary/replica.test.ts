/**
 * Issue 45.1 on the single binary: it carries Litestream and unpacks it only when REPLICA_URL asks
 * for replication; the database and the stored files reach a folder replica, and `./studio restore
 * replica:latest` brings them back into an empty folder.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { expect, it } from "vitest";
import { ensureBinary, supported } from "../helpers/binary";
import { freePort, SERVER_SECRET } from "../helpers/server";

it.skipIf(!supported)(
  "replicates with the Litestream it carries, and restores the replica into an empty folder",
  { tags: ["slow"] },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-binary-replica-"));
    fs.copyFileSync(await ensureBinary(), path.join(dir, "studio"));
    fs.chmodSync(path.join(dir, "studio"), 0o755);
    const replica = path.join(dir, "replica");
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      NODE_ENV: "production",
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      SESSION_SECRET: SERVER_SECRET,
      DATA_DIR: path.join(dir, "data"),
      REPLICA_URL: `file://${replica}`,
    };
    const proc = spawn("./studio", [], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
    proc.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const exited = new Promise((r) => proc.once("exit", r));
    try {
      for (const deadline = Date.now() + 30_000; ;) {
        const up = await fetch(`http://localhost:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (up && fs.existsSync(path.join(replica, "db", "generations")) && fs.existsSync(path.join(replica, "files")))
          break;
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`no replica:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(out).toContain(`replica: on (file://${replica})`);
      // Unpacked beside the other runtime files, by this start only.
      const runtime = path.join(dir, "data", ".runtime");
      const build = fs.readdirSync(runtime).find((f) => /^[0-9a-f]{16}$/.test(f))!;
      expect(fs.statSync(path.join(runtime, build, "litestream")).mode & 0o111).not.toBe(0);
    } finally {
      proc.kill("SIGTERM");
      await exited;
    }
    const restored = path.join(dir, "restored");
    const r = spawnSync("./studio", ["restore", "replica:latest"], {
      cwd: dir,
      encoding: "utf8",
      // A new machine's shell: the replica's address, the data folder, nothing of the server's.
      env: {
        PATH: env.PATH,
        DATA_DIR: restored,
        REPLICA_URL: env.REPLICA_URL,
      } as Partial<NodeJS.ProcessEnv> as NodeJS.ProcessEnv,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`restored the database from file://${replica}/db`);
    const db = new SQLite(path.join(restored, "app.db"), { readonly: true });
    try {
      expect((db.prepare("select count(*) n from templates").get() as { n: number }).n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    expect(fs.existsSync(path.join(restored, "storage", "template-files", "spark.zip"))).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  },
);
