/**
 * Issue 32.8: every command of the README's "Self-host on a VPS" section, run in its order, as
 * written, with the real binary. A sandbox folder stands for the server's `/` (the README's
 * `/srv/…` and `/etc/…` are moved into it, and port 3000 becomes a free one); the commands that
 * need a real VPS (useradd, chown, scp, systemctl, journalctl, sudo, systemd-run) run against
 * tests/helpers/host-shims.mjs, which starts the service as its unit file says. An S3-compatible
 * server (s3rver) started here stands for the bucket.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBinary, supported } from "../helpers/binary";
import { startS3 } from "../helpers/s3";
import { freePort } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "../..");
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");

/** The shell blocks of the section, in order. */
function selfHostBlocks(): string[] {
  const section = readme.slice(readme.indexOf("## Self-host on a VPS"), readme.indexOf("\n## Docker"));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

describe.skipIf(!supported)("the README's self-hosting section, command by command", { tags: ["slow"] }, () => {
  const blocks = selfHostBlocks();
  let sandbox = "";
  let buildMachine = "";
  let port = 0;
  let s3: Awaited<ReturnType<typeof startS3>> | undefined;
  let s3endpoint = "";
  const shims = path.join(root, "tests", "helpers", "host-shims.mjs");
  const srv = () => path.join(sandbox, "srv", "studio");
  const data = () => path.join(srv(), "data");

  /** The block as the server would run it, inside the sandbox. */
  const onHost = (block: string) =>
    block
      .replace(/(^|[\s="'(:])\/(srv|etc)\//gm, `$1${sandbox}/$2/`)
      .replaceAll("127.0.0.1:3000", `127.0.0.1:${port}`)
      .replaceAll("https://s3.eu-central-003.backblazeb2.com", s3endpoint)
      .replaceAll("your-key-id", "S3RVER")
      .replaceAll("your-application-key", "S3RVER");

  /**
   * One block through bash, stopping at the first command that fails, from the build machine's
   * folder. Not spawnSync: the bucket (s3rver) answers from this process's event loop.
   */
  async function runBlock(i: number) {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", onHost(blocks[i])], {
      cwd: buildMachine,
      // A root shell's environment: no NODE_ENV (the types of ProcessEnv insist on one).
      env: {
        PATH: `${path.join(sandbox, "bin")}:${process.env.PATH}`,
        SANDBOX: sandbox,
        STUDIO_TEST_PORT: String(port),
        HOME: sandbox,
      } as Record<string, string> as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    if (code !== 0) throw new Error(`README block ${i + 1} failed (${code}):\n${blocks[i]}\n${stdout}\n${stderr}`);
    return { stdout, stderr };
  }

  const journal = () => {
    const f = path.join(sandbox, "run", "systemd", "studio.service.journal");
    return fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "";
  };
  const shim = (...args: string[]) =>
    spawnSync(process.execPath, [shims, ...args], {
      env: { ...process.env, SANDBOX: sandbox, STUDIO_TEST_PORT: String(port) },
    });
  async function healthy() {
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the service did not come up:\n${journal()}`);
  }
  const query = <T>(sql: string) => {
    const db = new SQLite(path.join(data(), "app.db"), { readonly: true });
    try {
      return db.prepare(sql).all() as T[];
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    const binary = await ensureBinary();
    sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "studio-vps-"));
    for (const dir of ["bin", "srv", "etc/systemd/system", "etc/caddy"])
      fs.mkdirSync(path.join(sandbox, dir), { recursive: true });
    for (const tool of ["useradd", "chown", "scp", "systemctl", "journalctl", "sudo", "systemd-run"])
      fs.writeFileSync(
        path.join(sandbox, "bin", tool),
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(shims)} ${tool} "$@"\n`,
        { mode: 0o755 },
      );
    // The machine that built it: dist/ and deploy/ as `npm run build:binary` leaves them.
    buildMachine = path.join(sandbox, "build-machine");
    fs.mkdirSync(path.join(buildMachine, "dist"), { recursive: true });
    fs.copyFileSync(binary, path.join(buildMachine, "dist", "studio"));
    fs.copyFileSync(`${binary}.sha256`, path.join(buildMachine, "dist", "studio.sha256"));
    fs.cpSync(path.join(root, "deploy"), path.join(buildMachine, "deploy"), { recursive: true });
    port = await freePort();
    s3 = await startS3();
    s3endpoint = s3.endpoint;
  }, 600_000);

  afterAll(async () => {
    if (sandbox) shim("systemctl", "stop", "studio");
    await s3?.close();
    if (sandbox) fs.rmSync(sandbox, { recursive: true, force: true });
  });

  it("has the blocks this test knows", () => {
    expect(blocks).toHaveLength(8);
  });

  it("1-5: a user and a folder, the checked binary, the settings, the service, Caddy", async () => {
    const r = await runBlock(0);
    expect(r.stdout).toContain("studio: OK");
    expect(r.stdout).toContain('{"status":"ok","reason":null,"version":"1.0.0"');
    // Caddy is its only client: the service listens on loopback alone.
    expect(journal()).toContain(`[server] listening on 127.0.0.1:${port}`);
    const env = path.join(sandbox, "etc", "studio.env");
    expect(fs.statSync(env).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(env, "utf8")).toMatch(/^SESSION_SECRET=[0-9a-f]{64}$/m);
    expect(fs.statSync(path.join(srv(), "studio")).mode & 0o777).toBe(0o755);
    // Caddy proxies to the port the unit gives the service.
    const unit = fs.readFileSync(path.join(sandbox, "etc", "systemd", "system", "studio.service"), "utf8");
    const unitPort = /^Environment=PORT=(\d+)$/m.exec(unit)?.[1];
    expect(fs.readFileSync(path.join(sandbox, "etc", "caddy", "Caddyfile"), "utf8")).toContain(
      `reverse_proxy 127.0.0.1:${unitPort}`,
    );
    expect(query<{ n: number }>("select count(*) n from templates")[0].n).toBeGreaterThan(0);
  });

  it("the setup link from the service's log", async () => {
    const r = await runBlock(1);
    expect(r.stdout).toMatch(/^https:\/\/studio\.example\/setup\?token=\S+$/m);
  });

  it("operator commands as the service's user: grant an admin, the help", async () => {
    const r = await runBlock(2);
    expect(r.stdout).toContain("owner@studio.example is now a super admin");
    expect(r.stdout).toContain("restore FILE|s3:KEY");
    expect(
      query<{ email: string }>(
        "select email from users join admin_users on admin_users.id = users.id where is_super_admin = 1",
      ),
    ).toEqual([{ email: "owner@studio.example" }]);
  });

  it("a sign-in link sealed with the service's settings signs the owner in", async () => {
    const r = await runBlock(3);
    const link = /(https:\/\/studio\.example\/\S+)/.exec(r.stdout)?.[1];
    expect(link).toBeDefined();
    // The page the link opens, then its Continue button (the link is spent only by the POST).
    const url = new URL(link!);
    const at = (p: string) => `http://127.0.0.1:${port}${p}`;
    const proxied = { "X-Forwarded-Proto": "https", Host: "studio.example" };
    const page = await (await fetch(at(`${url.pathname}${url.search}`), { headers: proxied })).text();
    expect(page).toContain("Signing you in...");
    const res = await fetch(at(url.pathname), {
      method: "POST",
      redirect: "manual",
      headers: { ...proxied, Origin: "https://studio.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: url.searchParams.get("token")!, redirectTo: "" }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("set-cookie")).toMatch(/^__Host-studio_session=[^;]+;.* Secure/);
  });

  it("backs up while the service runs, restores with it stopped", async () => {
    const r = await runBlock(4);
    expect(r.stdout).toMatch(/backup written: .*\.studio-backup/);
    expect(r.stdout).toMatch(/restored .*: the database with its storage/);
    await healthy();
    expect(fs.readdirSync(path.join(data(), "backups")).filter((f) => f.endsWith(".studio-backup"))).toHaveLength(1);
  });

  it("off the machine: the bucket's settings, a backup uploaded", async () => {
    const r = await runBlock(5);
    expect(r.stdout).toMatch(/uploaded to studio-backups: studio-.*\.studio-backup/);
    await healthy();
    expect(journal()).toContain("and in studio-backups");
  });

  it("the VPS is gone: a new one, then the newest off-site copy brings the studio back", async () => {
    // Steps 1 to 4 on a new machine: an empty data folder, a fresh studio with no admin.
    expect(shim("systemctl", "stop", "studio").status).toBe(0);
    fs.rmSync(data(), { recursive: true });
    fs.mkdirSync(data());
    expect(shim("systemctl", "start", "studio").status).toBe(0);
    await healthy();
    expect(query("select id from admin_users")).toEqual([]);
    const r = await runBlock(6);
    expect(r.stdout).toMatch(/downloaded s3:latest to /);
    await healthy();
    expect(query<{ email: string }>("select email from users join admin_users on admin_users.id = users.id")).toEqual([
      { email: "owner@studio.example" },
    ]);
  });

  it("an update: the new binary checked, swapped and restarted", async () => {
    const r = await runBlock(7);
    expect(r.stdout).toMatch(/^studio \d+\.\d+\.\d+ \(schema \d+/m);
    await healthy();
    expect(fs.existsSync(path.join(srv(), "studio.new"))).toBe(false);
    // Every start ended with a clean stop: no crash in the service's log.
    expect(journal()).not.toMatch(/Error|exited with/);
  });
});
