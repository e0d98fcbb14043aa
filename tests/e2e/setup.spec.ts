/**
 * The first run (issue 29) as an owner meets it: a server started on an empty data folder prints a
 * setup link; the owner opens it, names the studio and is signed in as its super admin. The shared
 * e2e server cannot show this (its output is not read, and other tests make admins there), so each
 * test starts a server of its own, as the suite's does (E2E_SERVER=binary: dist/studio).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "../..");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

type FirstRun = { base: string; dataDir: string; link: string; output: () => string; proc: ChildProcess };

/** A production server on a fresh data folder; resolves with the setup link it printed. */
async function firstRunServer(): Promise<FirstRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-first-run-"));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const nodeFlags = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { config: { nodeFlags: string } }
  ).config.nodeFlags
    .split(" ")
    .filter(Boolean);
  const [command, args] =
    process.env.E2E_SERVER === "binary"
      ? [path.join(root, "dist/studio"), []]
      : [process.execPath, [...nodeFlags, "server/main.js"]];
  const proc = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      APP_URL: base,
      DATA_DIR: dataDir,
      SESSION_SECRET: "first-run-e2e-secret-0123456789abcdef0123",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited during start:\n${out}`);
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const lines = out.split("\n").filter((l) => l.startsWith("[setup]"));
  expect(lines, out).toHaveLength(1);
  const link = /^\[setup\] No admin yet\. Open this link within 24 hours to set up your studio: (\S+)$/.exec(
    lines[0],
  )?.[1];
  expect(link, lines[0]).toMatch(new RegExp(`^${base}/setup\\?token=[\\w-]{43}$`));
  return { base, dataDir, link: link!, output: () => out, proc };
}

function query<T>(dataDir: string, sqlText: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sqlText).all(...params) as T[];
  } finally {
    db.close();
  }
}

for (const width of [1280, 390]) {
  for (const javaScriptEnabled of [true, false]) {
    test(`at ${width} px, JavaScript ${javaScriptEnabled ? "on" : "off"}: the printed link sets up the studio and signs its owner in`, async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const server = await firstRunServer();
      const context = await browser.newContext({
        baseURL: server.base,
        viewport: { width, height: 844 },
        javaScriptEnabled,
      });
      try {
        const page = await context.newPage();
        const email = `owner-${width}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
        const opened = await page.goto(server.link);
        expect(opened?.status()).toBe(200);
        if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor();
        await expect(page).toHaveTitle(/Set up your studio/);
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
        await expect(page.getByRole("heading", { level: 1, name: "Set up your studio" })).toBeVisible();
        const name = page.getByLabel("Studio name");
        const mail = page.getByLabel("Your email");
        const submit = page.getByRole("button", { name: "Set up my studio" });

        // Nothing filled: both messages (from the browser's copy of the schema, or the server's 400).
        await submit.click();
        await expect(page.getByText("Studio name is required")).toBeVisible();
        await expect(page.getByText("Please enter a valid email")).toBeVisible();
        await expect(name).toHaveAttribute("aria-invalid", "true");

        // A bad email: its message, and the studio's name still typed.
        await name.fill("Atelier Nord");
        await mail.fill("owner-at-example");
        await submit.click();
        await expect(page.getByText("Please enter a valid email")).toBeVisible();
        await expect(page.getByText("Studio name is required")).toHaveCount(0);
        await expect(name).toHaveValue("Atelier Nord");
        expect(query(server.dataDir, "select id from admin_users")).toEqual([]);

        await mail.fill(email);
        await submit.click();
        await page.waitForURL("**/admin/settings");
        expect(
          query(server.dataDir, "select u.email, a.is_super_admin from admin_users a join users u on u.id = a.id"),
        ).toEqual([{ email, is_super_admin: 1 }]);
        const studio = query<{ data: string }>(
          server.dataDir,
          "select data from studio_settings where section = 'studio'",
        );
        expect(JSON.parse(studio[0].data)).toMatchObject({ name: "Atelier Nord" });
        expect((await context.cookies()).some((c) => c.name === "__studio_session")).toBe(true);
        // No email was needed to sign in.
        expect(query(server.dataDir, "select id from email_outbox")).toEqual([]);

        // Signed in: the console opens.
        const admin = await page.goto("/admin");
        expect(admin?.status()).toBe(200);
        await expect(page.getByRole("banner")).toContainText(email);
        await expect(page.getByRole("banner")).toContainText("Super Admin");

        // The link is spent.
        const again = await page.goto(server.link);
        expect(again?.status()).toBe(410);
        await expect(page.getByRole("heading", { name: "This setup link is no longer valid" })).toBeVisible();
        await expect(page.getByRole("button", { name: "Set up my studio" })).toHaveCount(0);
        await expect(page.getByText("studio admin login-link EMAIL")).toBeVisible();
      } finally {
        await context.close();
        server.proc.kill("SIGTERM");
        await new Promise((r) => (server.proc.exitCode === null ? server.proc.once("exit", r) : r(null)));
        fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
    });
  }
}
