/**
 * Issue 33.1 and 33.5 with real processes: a production server with a bad setting names it in
 * one line and exits 1 before it touches the data folder; a good one says in one line what is on;
 * a taken port is reported before any migration runs; HOST=127.0.0.1 listens on loopback alone;
 * files are private; and a command run by another user than the data folder's owner (root here)
 * refuses at once, creates nothing, and says what to run instead.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_SECRET, freePort, startServer, tempDataDir, type RunningServer } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/**
 * One good start for the tests that read a running server: its first start (an empty data folder,
 * so the files it creates are its own), on loopback, with a Stripe test key and a calendar.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    fresh: true,
    env: {
      HOST: "127.0.0.1",
      STRIPE_SECRET_KEY: "sk_test_123",
      STRIPE_WEBHOOK_SECRET: "whsec_123",
      CALENDLY_URL: "https://calendly.com/my-studio/call",
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

/** `node server/main.js` in production with `env` over good settings; resolves when it exits. */
async function refusedStart(env: Record<string, string>) {
  const port = String(await freePort());
  return new Promise<{ code: number | null; output: string; dataDir: string }>((resolve) => {
    const dataDir = tempDataDir();
    const proc = spawn(process.execPath, ["server/main.js"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        APP_URL: "https://studio.example",
        SESSION_SECRET: SERVER_SECRET,
        DATA_DIR: dataDir,
        PORT: port,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    proc.stdout.on("data", (c: Buffer) => (output += c.toString()));
    proc.stderr.on("data", (c: Buffer) => (output += c.toString()));
    // Killed if it starts after all: the test then fails on the exit code. (60 s: seven of these
    // load the server at once, and a host busy with more than this suite takes its time.)
    const timer = setTimeout(() => proc.kill("SIGKILL"), 60_000);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output, dataDir });
    });
  });
}

const lines = (output: string) => output.split("\n").filter(Boolean);

describe("settings checked at start", () => {
  const bad: [string, Record<string, string>, string][] = [
    ["a short secret", { SESSION_SECRET: "x" }, "[config] SESSION_SECRET must be at least 32 characters"],
    [
      "the README's placeholder",
      { SESSION_SECRET: "<output of: openssl rand -hex 32>" },
      "[config] SESSION_SECRET is a placeholder, not a secret",
    ],
    [
      "Stripe without its webhook secret",
      { STRIPE_SECRET_KEY: "sk_live_123" },
      "[config] STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET",
    ],
    [
      "a calendar over plain http",
      { CALENDLY_URL: "http://calendly.com/studio" },
      "[config] CALENDLY_URL must be an https URL (plain http only on 127.0.0.1 or localhost), got 'http://calendly.com/studio'",
    ],
    [
      "an admin list with a non-address",
      { SUPER_ADMIN_EMAILS: "owner@studio.example;other" },
      "[config] SUPER_ADMIN_EMAILS must be a comma list of email addresses, got 'owner@studio.example;other'",
    ],
    [
      "APP_URL with a path",
      { APP_URL: "https://studio.example/shop" },
      "[config] APP_URL must be an origin such as https://studio.example, without a path, got 'https://studio.example/shop'",
    ],
    ["a PORT that is not a number", { PORT: "abc" }, "[config] PORT must be a number from 1 to 65535, got 'abc'"],
  ];

  /** Starts the server once per setting, all at once: each its one line, exit 1, nothing written. */
  async function refusals(settings: typeof bad) {
    const results = await Promise.all(settings.map(([, env]) => refusedStart(env)));
    results.forEach((r, i) => {
      const [what, , line] = settings[i];
      expect(r.code, what).toBe(1);
      expect(lines(r.output), what).toHaveLength(1);
      expect(r.output, what).toContain(line);
      expect(r.output, what).not.toContain("    at ");
      expect(fs.readdirSync(r.dataDir), what).toEqual([]);
    });
    // The secret itself is never printed.
    expect(results[0].output).not.toMatch(/got 'x'/);
  }

  // Each start loads the whole server before it reads its settings (some 2 s of CPU): npm test
  // starts it with two of them, a rule of the settings (the short secret, which is never printed)
  // and a value of the wrong kind; the slow suite with all seven. Every message is also checked
  // without a process in tests/unit/env.test.ts.
  it("two bad settings, a rule and a kind: each its one line, exit 1, and nothing written into the data folder", async () => {
    await refusals(bad.filter(([what]) => what === "a short secret" || what === "a PORT that is not a number"));
  });

  it(
    "each bad setting: its one line, exit 1, and nothing written into the data folder",
    { tags: ["slow"] },
    async () => {
      await refusals(bad);
    },
  );

  it("a good start says in one line what is on, and warns of a Stripe test key", async () => {
    const out = server.output();
    expect(out).toContain(
      "[config] warning: STRIPE_SECRET_KEY is a test key (sk_test_…) in production: no real payment will be taken",
    );
    expect(out).toContain(
      "[config] mail: off · payments: on (Stripe, test key) · Google sign-in: off · calendar: on (calendly.com) · backups: on (0 3 * * *, keep 7, this machine only) · replica: off",
    );
  });
});

describe("network and files", () => {
  it("a taken port is one line, before any migration runs", async () => {
    const taken = net.createServer().listen(0, "127.0.0.1");
    await new Promise((r) => taken.once("listening", r));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const r = await refusedStart({ PORT: String(port), HOST: "127.0.0.1" });
      expect(r.code).toBe(1);
      expect(lines(r.output)).toEqual([
        `[server] cannot listen on 127.0.0.1:${port}: it is already in use by another program (EADDRINUSE); stop that program or set PORT to a free port`,
      ]);
      expect(fs.existsSync(path.join(r.dataDir, "app.db"))).toBe(false);
    } finally {
      taken.close();
    }
  });

  it("HOST=127.0.0.1 listens on loopback alone; files are private to the studio's user and group", async () => {
    expect(server.output()).toContain(`[server] listening on 127.0.0.1:${server.port}`);
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    // The kernel's table of listening sockets: this port, bound to 127.0.0.1 only.
    const hexPort = server.port.toString(16).toUpperCase().padStart(4, "0");
    const listening = ["/proc/net/tcp", "/proc/net/tcp6"]
      .flatMap((f) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8").split("\n").slice(1) : []))
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === "0A")
      .map((f) => f[1]);
    expect(listening).toEqual([`0100007F:${hexPort}`]);
    // Another address of this machine, where there is one, is refused.
    const other = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
    if (other) await expect(fetch(`http://${other}:${server.port}/healthz`)).rejects.toThrow();

    const mode = (p: string) => fs.statSync(path.join(server.dataDir, p)).mode & 0o777;
    expect(mode("app.db")).toBe(0o640);
    expect(mode("storage")).toBe(0o750);
    const stored = fs.readdirSync(path.join(server.dataDir, "storage", "template-images"))[0];
    expect(mode(path.join("storage", "template-images", stored))).toBe(0o640);
  });

  const isRoot = process.getuid?.() === 0;
  it.skipIf(!isRoot)(
    "as root on a data folder another user owns: refused at once, nothing created, the command to run instead",
    async () => {
      // `nobody` owns the folder, as `studio` owns /srv/studio/data on a server.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-owned-"));
      fs.chownSync(dataDir, 65534, 65534);
      const user = fs
        .readFileSync("/etc/passwd", "utf8")
        .split("\n")
        .find((l) => l.split(":")[2] === "65534")!
        .split(":")[0];
      const env = { PATH: process.env.PATH, DATA_DIR: dataDir, NODE_ENV: "production" as const, HOME: os.tmpdir() };
      const backup = await run("npm", ["run", "-s", "backup"], { cwd: root, env }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect((backup as { code: number }).code).toBe(1);
      expect((backup as { stderr: string }).stderr).toContain(
        `refused: the data folder ${dataDir} belongs to ${user}, and this runs as root`,
      );
      expect((backup as { stderr: string }).stderr).toContain(
        `Run it as ${user} instead:  sudo -u ${user} DATA_DIR=${dataDir} npm run backup`,
      );
      const serve = await refusedStart({ DATA_DIR: dataDir, PORT: String(await freePort()) });
      expect(serve.code).toBe(1);
      expect(serve.output).toContain(`sudo -u ${user} DATA_DIR=${dataDir} npm start`);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
  );
});
