/**
 * A server of its own for a Playwright test that changes what every page shows (the studio's
 * settings) or needs a fresh data folder (the first run): the same runtime and settings as the
 * suite's server (dist/studio with E2E_SERVER=binary, else `npm start`'s), on a free port with an
 * empty data folder, so the other tests, running beside it, never see its changes.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import type { BrowserContext } from "@playwright/test";
import { CALENDLY_E2E_SIGNING_KEY, E2E_SECRET, queryDataDir } from "./e2e";

const root = path.resolve(import.meta.dirname, "../..");

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export type OwnServer = {
  url: string;
  dataDir: string;
  /** Everything it printed so far. */
  output: () => string;
  /** Runs SQL on its database (a read answers rows). */
  query: <T = Record<string, unknown>>(sqlText: string, ...params: unknown[]) => T[];
  /** Signs the context in as an admin of this server (a session row and its cookie). */
  signInAdmin: (context: BrowserContext, email: string) => Promise<void>;
  stop: () => Promise<void>;
  /** Stops it and starts it again on the same data folder and port. */
  restart: () => Promise<void>;
};

export async function startOwnServer(
  opts: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<OwnServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "studio-own-"));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const fakes = `http://127.0.0.1:${process.env.E2E_FAKES_PORT}`;
  const nodeFlags = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { config: { nodeFlags: string } }
  ).config.nodeFlags
    .split(" ")
    .filter(Boolean);
  const [command, args] =
    process.env.E2E_SERVER === "binary"
      ? [path.join(root, "dist/studio"), []]
      : [process.execPath, [...nodeFlags, "server/main.js"]];
  let out = "";
  let proc: ReturnType<typeof spawn>;

  async function start() {
    proc = spawn(command, args, {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: dataDir,
        APP_URL: url,
        SESSION_SECRET: E2E_SECRET,
        CALENDLY_URL: `${fakes}/calendly/studio`,
        CALENDLY_TOKEN: "calendly-e2e-token",
        CALENDLY_API_BASE: fakes,
        CALENDLY_WEBHOOK_SIGNING_KEY: CALENDLY_E2E_SIGNING_KEY,
        SMTP_URL: `smtp://e2e:e2e-pass@127.0.0.1:${process.env.E2E_SMTP_PORT}`,
        MAIL_FROM: "Studio Rowan <hello@studiorowan.example>",
        ...opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) return;
      } catch {
        /* not listening yet */
      }
      if (proc.exitCode !== null) throw new Error(`server exited ${proc.exitCode}:\n${out}`);
      if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function stop() {
    if (proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await exited;
  }

  const query = <T>(sqlText: string, ...params: unknown[]) => queryDataDir<T>(dataDir, sqlText, ...params);

  await start();
  return {
    url,
    dataDir,
    output: () => out,
    query,
    async signInAdmin(context, email) {
      query("insert or ignore into users (id, email) values (?, ?)", crypto.randomUUID(), email);
      const [user] = query<{ id: string }>("select id from users where email = ?", email);
      query("insert or replace into admin_users (id, is_super_admin) values (?, 1)", user.id);
      const sid = crypto.randomBytes(24).toString("base64url");
      query(
        "insert into sessions (id, user_id, data, expires_at) values (?, ?, ?, ?)",
        sid,
        user.id,
        JSON.stringify({ userId: user.id }),
        new Date(Date.now() + 86400_000).toISOString(),
      );
      const header = await createCookie("__studio_session", { secrets: [E2E_SECRET] }).serialize(sid);
      const pair = header.split(";")[0];
      await context.addCookies([{ name: "__studio_session", value: pair.slice(pair.indexOf("=") + 1), url }]);
    },
    stop: async () => {
      await stop();
    },
    async restart() {
      await stop();
      await start();
    },
  };
}
