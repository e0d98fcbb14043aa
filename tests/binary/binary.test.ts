/**
 * The single binary (issue 17): `scripts/build-binary.mjs` builds dist/studio (or keeps it when it
 * already holds the current build), and the tests copy it alone into an empty folder and use it
 * there as an operator would: serve with the default DATA_DIR, book without JavaScript, grant an
 * admin, back up, stop. Run by `npm run test:server` after `npm run build`.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPayload } from "../../server/binary-payload.js";
import { ensureBinary, supported } from "../helpers/binary";
import { SERVER_SECRET, freePort, httpVisitor, queryDb, sessionCookie } from "../helpers/server";
import { startSmtpFake } from "../helpers/smtp-fake";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

describe.skipIf(!supported)("dist/studio, copied alone into an empty folder", { tags: ["slow"] }, () => {
  let dir = "";
  let dataDir = "";
  let url = "";
  let proc: ChildProcess | undefined;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  let out = "";
  const env = (): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    NODE_ENV: "production",
    APP_URL: url,
    SESSION_SECRET: SERVER_SECRET,
  });
  /** `./studio ARGS` in the folder, with the server's environment (DATA_DIR left to its default). */
  const studio = (...args: string[]) => run("./studio", args, { cwd: dir, env: env() });
  /**
   * Another server of the same binary on a data folder of its own, with `extra` settings: its
   * address once `ready` answers 200, and `stop` (resolved once it has exited).
   */
  async function anotherServer(dataDir: string, extra: Record<string, string>, ready = "/") {
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const proc = spawn("./studio", [], {
      cwd: dir,
      env: { ...env(), APP_URL: base, PORT: String(port), DATA_DIR: dataDir, ...extra },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
      proc.kill(signal);
      await exited;
    };
    const status = () =>
      fetch(`${base}${ready}`).then(
        (r) => r.status,
        () => 0,
      );
    try {
      await expect.poll(status, { timeout: 20_000 }).toBe(200);
    } catch (error) {
      await stop("SIGKILL");
      throw error;
    }
    return { base, stop };
  }

  beforeAll(async () => {
    const binary = await ensureBinary();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-binary-"));
    fs.copyFileSync(binary, path.join(dir, "studio"));
    fs.chmodSync(path.join(dir, "studio"), 0o755);
    dataDir = path.join(dir, "data");
    const port = await freePort();
    url = `http://localhost:${port}`;
  }, 300_000);

  afterAll(async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("prints its version and its help", async () => {
    const version = await studio("--version");
    expect(version.stdout).toMatch(
      /^studio 1\.0\.0 \(schema \d+, \d{4}_\d\d_\d\d_\d{4}_\w+; build [0-9a-f]{16}, git .+, built .+\) on Node v24\.\d+\.\d+, better-sqlite3 12\./,
    );
    const help = await studio("--help");
    for (const command of [
      "admin grant EMAIL [--super]",
      "admin revoke EMAIL",
      "admin login-link EMAIL",
      "backup [FILE]",
      "restore FILE",
      "migrate",
      "seed",
      "STUDIO_RUNTIME_DIR",
    ]) {
      expect(help.stdout).toContain(command);
    }
    await expect(studio("frobnicate")).rejects.toMatchObject({ code: 2 });
  });

  it("refuses to start in production without its secrets", async () => {
    const { SESSION_SECRET: _omitted, ...rest } = env();
    const refused = await run("./studio", [], {
      cwd: dir,
      env: { ...rest, DATA_DIR: path.join(dir, "refused") },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toContain("Refusing to start in production: missing SESSION_SECRET");
  });

  it.skipIf(process.getuid?.() !== 0)(
    "run as root on a data folder another user owns: refused before its runtime is extracted, with the command to run",
    async () => {
      const owned = fs.mkdtempSync(path.join(os.tmpdir(), "studio-owned-"));
      fs.chownSync(owned, 65534, 65534);
      const refused = await run("./studio", ["backup"], {
        cwd: dir,
        env: { ...env(), DATA_DIR: owned },
      }).catch((e: { code: number; stderr: string }) => e);
      expect(refused).toMatchObject({ code: 1 });
      expect((refused as { stderr: string }).stderr).toMatch(
        new RegExp(`Run it as (\\S+) instead:  sudo -u \\1 DATA_DIR=${owned} ${path.join(dir, "studio")} backup`),
      );
      expect(fs.readdirSync(owned)).toEqual([]);
    },
  );

  it("serves / and a template page after migrating and seeding an empty folder", async () => {
    const started = Date.now();
    proc = spawn("./studio", [], {
      cwd: dir,
      env: { ...env(), PORT: new URL(url).port },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout?.on("data", (c: Buffer) => (out += c.toString()));
    proc.stderr?.on("data", (c: Buffer) => (out += c.toString()));
    const p = proc;
    exited = new Promise((resolve) => p.once("exit", (code, signal) => resolve({ code, signal })));
    let home: Response | undefined;
    while (Date.now() - started < 20_000) {
      if (proc.exitCode !== null) throw new Error(`the binary exited during start:\n${out}`);
      home = await fetch(`${url}/`).catch(() => undefined);
      if (home) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(home?.status, out).toBe(200);
    console.log(`[binary] first answer on / after ${Date.now() - started} ms`);
    expect(out).toContain("[db] seeded");
    const template = await fetch(`${url}/templates/atelier`);
    expect(template.status).toBe(200);
    expect(await template.text()).toContain("Atelier");
    // The runtime files go into DATA_DIR/.runtime/<build id>/: the SQLite addon at the start, and
    // the fresh database the new data folder's app.db was copied from; the others at their first
    // use (issue 42.4), so the first pages wrote nothing else.
    const builds = fs.readdirSync(path.join(dataDir, ".runtime"));
    expect(builds).toHaveLength(1);
    const runtime = path.join(dataDir, ".runtime", builds[0]);
    const atStart = ["better_sqlite3.node", "fresh.db"];
    expect(fs.readdirSync(runtime).sort()).toEqual(atStart);
    // Only a path the payload names is written: escapes and names it does not have write nothing.
    for (const probe of [
      "/build/..%2F..%2Fapp.js.map",
      "/%2e%2e/better_sqlite3.node",
      "/apart/stripe.cjs",
      "/app.js.map",
      "/fresh.db",
    ])
      expect([400, 403, 404], probe).toContain((await fetch(`${url}${probe}`)).status);
    expect(fs.readdirSync(runtime).sort()).toEqual(atStart);
    expect((await fetch(`${url}/favicon.svg`)).status).toBe(200);
    expect(fs.readdirSync(path.join(runtime, "public"))).toEqual(["favicon.svg"]);
  });

  it("serves the browser build immutable and gzipped, as npm start does", async () => {
    const html = await (await fetch(`${url}/`)).text();
    const scripts = [...new Set([...html.matchAll(/"(\/build\/[^"]+\.js)"/g)].map((m) => m[1]))];
    expect(scripts.length).toBeGreaterThan(1);
    const answers = await Promise.all(
      scripts.map((s) => fetch(`${url}${s}`, { headers: { "Accept-Encoding": "gzip" } })),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    // compression() leaves the smallest chunks (under 1 KB) as they are.
    expect(answers.some((res) => res.headers.get("content-encoding") === "gzip")).toBe(true);
    expect((await fetch(`${url}/favicon.svg`)).status).toBe(200);
  });

  it("reads its payload without mapping it: no page of the bundle or the assets stays in its memory", async () => {
    const binary = fs.realpathSync(path.join(dir, "studio"));
    const payload = openPayload(binary);
    const starts = payload.names().map((name) => payload.offsetOf(name));
    payload.close();
    const payloadStart = Math.min(...starts);
    // The mappings of the executable's own file: Node's code and data and the SEA's small loader.
    const mapped = fs
      .readFileSync(`/proc/${proc?.pid}/maps`, "utf8")
      .split("\n")
      .filter((line) => line.endsWith(` ${binary}`))
      .map((line) => {
        const [range, , offset] = line.split(/\s+/);
        const [from, to] = range.split("-").map((h) => parseInt(h, 16));
        return { offset: parseInt(offset, 16), end: parseInt(offset, 16) + (to - from) };
      });
    expect(mapped.length).toBeGreaterThan(0);
    expect(Math.max(...mapped.map((m) => m.end))).toBeLessThanOrEqual(payloadStart);
    // What it extracted from the payload is what the build put in.
    const [build] = fs.readdirSync(path.join(dataDir, ".runtime"));
    expect(fs.readFileSync(path.join(dataDir, ".runtime", build, "public", "favicon.svg"))).toEqual(
      fs.readFileSync(path.join(root, "public", "favicon.svg")),
    );
  });

  it("logs each request as one JSON line, and an error with a stack through the sources", async () => {
    const res = await fetch(`${url}/packages`);
    const id = res.headers.get("x-request-id");
    await res.arrayBuffer();
    const parsed = () =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await expect.poll(() => parsed().filter((l) => l.reqId === id && "status" in l).length).toBe(1);
    // The owner's saved legal text, damaged on disk: the page shows the sample's, the log says why.
    const db = new SQLite(path.join(dataDir, "app.db"));
    db.pragma("busy_timeout = 5000");
    db.prepare("insert or replace into studio_settings (section, data, sample) values ('legal', '{not json', 0)").run();
    db.prepare("update catalogue_version set version = version + 1 where id = 1").run();
    db.close();
    expect((await fetch(`${url}/terms`)).status).toBe(200);
    const error = () => parsed().find((l) => String(l.msg).includes("the saved legal settings are not JSON"));
    await expect.poll(error).toBeTruthy();
    const stack = (error()!.err as { stack: string }).stack;
    // The frame that called JSON.parse is ours: named by its source and line. Frames in packages
    // stay as the bundle's (the binary's map holds the product's code only, decision 027).
    expect(stack).toMatch(/at JSON\.parse[^\n]*\n\s+at [^\n]*server\/studio\/studio\.server\.ts:\d+:\d+/);
    const fix = new SQLite(path.join(dataDir, "app.db"));
    fix.pragma("busy_timeout = 5000");
    fix.prepare("delete from studio_settings where section = 'legal'").run();
    fix.prepare("update catalogue_version set version = version + 1 where id = 1").run();
    fix.close();
  });

  it("takes a booking from a browser without JavaScript", async () => {
    const visitor = httpVisitor(url);
    await visitor.fillSteps("binary-booking@example.com");
    const confirmed = await visitor.confirm();
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/booking/success");
    expect(queryDb(dataDir, "select id from bookings where email = ?", "binary-booking@example.com")).toHaveLength(1);
  });

  it("./studio admin grant gives that user the console", async () => {
    const before = await fetch(`${url}/admin`, {
      headers: { Cookie: await sessionCookie(dataDir, "not-yet@example.com") },
      redirect: "manual",
    });
    expect(before.status).toBe(302);
    const granted = await studio("admin", "grant", "a@example.com");
    expect(granted.stdout).toContain("a@example.com is now an admin");
    const res = await fetch(`${url}/admin`, {
      headers: { Cookie: await sessionCookie(dataDir, "a@example.com") },
      redirect: "manual",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("a@example.com");
  });

  it("./studio backup writes one checked file; ./studio restore refuses while the server runs", async () => {
    const file = path.join(dir, "backups", "nightly.studio-backup");
    const { stdout } = await studio("backup", file);
    expect(stdout).toContain(`backup written: ${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "studio-binary-backup-"));
    execFileSync("tar", ["-xf", file, "-C", unpacked]);
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ product: "studio", format: 1, reason: "manual" });
    const copy = new SQLite(path.join(unpacked, "app.db"), { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(copy.prepare("select count(*) as n from bookings").get()).toEqual({ n: 1 });
    } finally {
      copy.close();
      fs.rmSync(unpacked, { recursive: true, force: true });
    }
    // The server holds the data folder: a restore under it is refused, and changes nothing.
    const before = fs.statSync(path.join(dataDir, "app.db")).mtimeMs;
    const refused = await studio("restore", file).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain(`the studio is running (pid ${proc?.pid}); stop it first`);
    expect(fs.statSync(path.join(dataDir, "app.db")).mtimeMs).toBe(before);
  });

  it("answers its first pages and a booking on the fetch classes bundled with it: Node's own copy is never loaded, nor TLS", async () => {
    // Node compiles its own undici (half a megabyte) when a global Request is first touched, some
    // 25 ms of a cold start; the server installs undici's classes from its bundle first
    // (server/fetch-globals.ts, decision 048). A preload lists the built-in modules the process
    // loaded, as it exits.
    const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-binary-fetch-"));
    const loaded = path.join(probeDir, "loaded.txt");
    const preload = path.join(probeDir, "preload.cjs");
    fs.writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join("\\n")));`,
    );
    const dataDir = path.join(probeDir, "data");
    const { base, stop } = await anotherServer(dataDir, { NODE_OPTIONS: `--require ${preload}` });
    try {
      expect(await (await fetch(`${base}/templates/atelier`)).text()).toContain("Atelier");
      // Forms read by request.formData(): a whole booking, as a browser without JavaScript sends it.
      const visitor = httpVisitor(base);
      await visitor.fillSteps("bundled-fetch@example.com");
      const confirmed = await visitor.confirm();
      expect(confirmed.headers.get("location")).toBe("/booking/success");
      expect(queryDb(dataDir, "select id from bookings where email = ?", "bundled-fetch@example.com")).toHaveLength(1);
    } finally {
      await stop();
    }
    const modules = fs.readFileSync(loaded, "utf8").split("\n");
    expect(modules).toContain("NativeModule http");
    expect(modules).not.toContain("NativeModule internal/deps/undici/undici");
    // Without DOMAIN (behind a proxy), nothing of TLS either: its servers and the certificate's
    // keeper load only for automatic HTTPS.
    expect(modules).not.toContain("NativeModule tls");
    expect(modules).not.toContain("NativeModule https");
    fs.rmSync(probeDir, { recursive: true, force: true });
  });

  it("loads a package read apart from its payload at its first use: a sign-in link goes out through SMTP", async () => {
    // Another server on its own folder, with SMTP: nodemailer is read from apart/smtp.cjs, which the
    // binary writes into its runtime folder when the first message is sent (issue 42.4).
    const smtp = await startSmtpFake("binary-mail", "binary-pass");
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-binary-mail-"));
    const { base, stop } = await anotherServer(
      mailDir,
      { SMTP_URL: smtp.url, MAIL_FROM: "Studio <studio@example.com>" },
      "/healthz",
    );
    try {
      const [build] = fs.readdirSync(path.join(mailDir, ".runtime"));
      expect(fs.existsSync(path.join(mailDir, ".runtime", build, "apart"))).toBe(false);
      const asked = await fetch(`${base}/auth/email`, {
        method: "POST",
        body: new URLSearchParams({ email: "reader@example.com" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
        redirect: "manual",
      });
      expect(asked.status).toBeLessThan(400);
      const mail = await smtp.waitFor((m) => m.to.includes("reader@example.com"));
      expect(mail.raw).toMatch(/Subject: Your sign-in link for /);
      expect(fs.readdirSync(path.join(mailDir, ".runtime", build, "apart"))).toEqual(["smtp.cjs"]);
    } finally {
      await stop("SIGKILL");
      await smtp.close();
      fs.rmSync(mailDir, { recursive: true, force: true });
    }
  });

  // It exits by itself, with 0, having said it finishes in-flight requests (the test's timeout
  // bounds the wait; how long a stop takes is not this test's measure).
  it("stops cleanly on SIGTERM", async () => {
    proc?.kill("SIGTERM");
    const result = await exited;
    expect(result).toEqual({ code: 0, signal: null });
    expect(out).toContain("SIGTERM: finishing in-flight requests");
  });
});
