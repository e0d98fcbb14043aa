/**
 * Issue 45.4: `studio install` from the binary to the setup page over HTTPS, in a sandbox folder
 * that stands for the VPS's `/` (--root), the machine's tools it calls (useradd, chown, systemctl,
 * journalctl) from tests/helpers/host-shims.mjs as the README test runs them, and the certificate
 * from Pebble (the ACME test authority) started here. The README's "Self-host in one command" is
 * this command.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBinary, supported } from "../helpers/binary";
import { startPebble } from "../helpers/pebble";
import { freePort } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "../..");
const shims = path.join(root, "tests", "helpers", "host-shims.mjs");

describe.skipIf(!supported)("studio install", { tags: ["slow"] }, () => {
  let pebble: Awaited<ReturnType<typeof startPebble>>;
  let binary = "";
  let trust = "";
  let rootPem = "";
  let httpsPort = 0;
  const sandboxes: string[] = [];

  /** A fresh VPS: its `/`, with the shims on its PATH and the binary copied to root's home. */
  function vps() {
    const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "studio-install-"));
    sandboxes.push(sandbox);
    for (const dir of ["bin", "etc", "root"]) fs.mkdirSync(path.join(sandbox, dir), { recursive: true });
    for (const tool of ["useradd", "chown", "systemctl", "journalctl"])
      fs.writeFileSync(
        path.join(sandbox, "bin", tool),
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(shims)} ${tool} "$@"\n`,
        { mode: 0o755 },
      );
    fs.copyFileSync(binary, path.join(sandbox, "root", "studio"));
    fs.chmodSync(path.join(sandbox, "root", "studio"), 0o755);
    return sandbox;
  }

  function install(sandbox: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        "./studio",
        [
          "install",
          ...["--root", sandbox, "--acme-directory", pebble.directory],
          ...["--https-port", String(httpsPort), "--http-port", String(pebble.httpPort)],
          ...args,
        ],
        {
          cwd: path.join(sandbox, "root"),
          env: {
            PATH: `${path.join(sandbox, "bin")}:${process.env.PATH}`,
            SANDBOX: sandbox,
            HOME: path.join(sandbox, "root"),
            NODE_EXTRA_CA_CERTS: trust,
          } as Record<string, string> as unknown as NodeJS.ProcessEnv,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr.on("data", (c: Buffer) => (out += c.toString()));
      child.once("close", (code) => resolve({ code, out }));
    });
  }

  const calls = (sandbox: string) => {
    const f = path.join(sandbox, "run", "systemd", "calls.log");
    return fs.existsSync(f) ? fs.readFileSync(f, "utf8").trim().split("\n") : [];
  };

  beforeAll(async () => {
    binary = await ensureBinary();
    pebble = await startPebble();
    rootPem = await pebble.root();
    // What the machine trusts: the authority's own listener (to order) and its root (to check the site).
    trust = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "trust-")), "ca.pem");
    fs.writeFileSync(trust, fs.readFileSync(pebble.caFile, "utf8") + rootPem);
    httpsPort = await freePort();
  }, 600_000);

  afterAll(async () => {
    for (const sandbox of sandboxes)
      await new Promise((r) =>
        spawn(process.execPath, [shims, "systemctl", "stop", "studio"], {
          env: { ...process.env, SANDBOX: sandbox },
        }).once("close", r),
      );
    await pebble?.close();
    for (const sandbox of sandboxes) fs.rmSync(sandbox, { recursive: true, force: true });
  });

  it("goes from the binary to the setup page over HTTPS in under a minute, and a second run changes nothing", async () => {
    const sandbox = vps();
    const started = Date.now();
    const first = await install(sandbox, "--domain", "studio.test", "--email", "owner@studio.test");
    const seconds = (Date.now() - started) / 1000;
    expect(first.code, first.out).toBe(0);
    expect(seconds, first.out).toBeLessThan(60);
    expect(first.out).toContain("made the system user studio");
    expect(first.out).toContain("wrote /etc/studio.env (0600, a new SESSION_SECRET)");
    expect(first.out).toContain(`installed: https://studio.test:${httpsPort} answers (/healthz 200)`);
    const link = /https:\/\/studio\.test:\d+\/setup\?token=\S+/.exec(first.out)?.[0];
    expect(link, first.out).toBeTruthy();

    // The files as a VPS would have them.
    const env = fs.readFileSync(path.join(sandbox, "etc", "studio.env"), "utf8");
    expect(fs.statSync(path.join(sandbox, "etc", "studio.env")).mode & 0o777).toBe(0o600);
    expect(env).toMatch(/^SESSION_SECRET=[0-9a-f]{64}$/m);
    expect(env).toContain("DOMAIN=studio.test\nACME_EMAIL=owner@studio.test\n");
    const unit = fs.readFileSync(path.join(sandbox, "etc", "systemd", "system", "studio.service"), "utf8");
    for (const line of [
      "NoNewPrivileges=yes",
      "ProtectSystem=strict",
      "ReadWritePaths=/srv/studio/data",
      "UMask=0027",
      "AmbientCapabilities=CAP_NET_BIND_SERVICE",
      "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
      "User=studio",
    ])
      expect(unit).toContain(line);

    // The setup page, over HTTPS, to a client that trusts only the authority's root.
    const page = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(link!);
      https
        .get(
          {
            host: "127.0.0.1",
            port: u.port,
            path: u.pathname + u.search,
            servername: "studio.test",
            headers: { Host: u.host },
            ca: rootPem,
          },
          (res) => {
            let body = "";
            res.on("data", (c: Buffer) => (body += c.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        )
        .on("error", reject);
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<form");

    const before = calls(sandbox).length;
    const secret = env.match(/^SESSION_SECRET=.*$/m)![0];
    const second = await install(sandbox, "--domain", "studio.test", "--email", "owner@studio.test");
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain(
      `nothing changed: studio is installed and running at https://studio.test:${httpsPort}`,
    );
    expect(second.out).not.toMatch(/made|wrote|copied/);
    // Nothing but "enable --now" (a no-op for a running service) reached the machine.
    expect(calls(sandbox).slice(before)).toEqual(["systemctl enable --now studio"]);
    expect(fs.readFileSync(path.join(sandbox, "etc", "studio.env"), "utf8")).toContain(secret);
  });

  it("is what the README's one-command section runs, with the lines it shows", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const section = readme.slice(
      readme.indexOf("## Self-host in one command"),
      readme.indexOf("## Self-host on a VPS"),
    );
    expect(section).toContain("./studio install --domain studio.example.com --email owner@example.com");
    for (const line of ["made the system user studio", "installed: https://studio.example.com answers (/healthz 200)"])
      expect(section).toContain(line);
  });

  it("--dry-run says what it would do and touches nothing; bad answers are refused before anything", async () => {
    const sandbox = vps();
    const dry = await install(sandbox, "--domain", "studio.test", "--email", "owner@studio.test", "--dry-run");
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toContain("would: made the system user studio");
    expect(dry.out).toContain("would: systemctl enable --now studio");
    expect(dry.out).toContain("nothing done (--dry-run)");
    expect(fs.readdirSync(path.join(sandbox, "etc"))).toEqual([]);
    expect(fs.existsSync(path.join(sandbox, "srv"))).toBe(false);
    expect(calls(sandbox)).toEqual([]);

    const bad = await install(sandbox, "--domain", "https://studio.test/", "--email", "owner@studio.test");
    expect(bad.code).toBe(2);
    expect(bad.out).toContain("--domain must be a host name such as studio.example.com");
    // Each answer becomes one line of /etc/studio.env: nothing may add another.
    const smuggled = await install(
      sandbox,
      ...[
        "--domain",
        "studio.test",
        "--email",
        "owner@studio.test",
        "--acme-directory",
        "https://ca.test/dir\nNODE_OPTIONS=x",
      ],
    );
    expect(smuggled.code).toBe(2);
    expect(smuggled.out).toContain("--acme-directory must be an https URL");
    const noEmail = await install(sandbox, "--domain", "studio.test", "--email", "owner");
    expect(noEmail.out).toContain("--email must be an email address, got 'owner'");
    expect(fs.readdirSync(path.join(sandbox, "etc"))).toEqual([]);
  });
});
