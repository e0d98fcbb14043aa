/**
 * The production build as a child process on a free port and its own data folder, for tests of
 * what only a running server shows: rate limits per client, crashes, shutdown, locks.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import SQLite from "better-sqlite3";
import { afterEach, inject } from "vitest";
import { SERVER_SECRET, spawnBuild } from "./server-data-template";

export { SERVER_SECRET };

const root = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal and waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/**
 * The messages of a server's log (one JSON line each, decision 027), in order; a line that is not
 * JSON is taken as it is.
 */
export function logMessages(output: string): string[] {
  return output
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return String((JSON.parse(l) as { msg?: unknown }).msg ?? "");
      } catch {
        return l;
      }
    });
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "studio-server-"));
}

/**
 * A new data folder holding a copy of the one the build left after its first start in this run
 * (tests/helpers/server-data-template.ts): migrated and seeded, as every later start finds it.
 * Outside the server suites (nothing provided), an empty folder.
 */
export function startedDataDir(): string {
  const dir = tempDataDir();
  let template: string | undefined;
  try {
    template = inject("serverDataTemplate");
  } catch {
    template = undefined;
  }
  if (template) fs.cpSync(template, dir, { recursive: true });
  return dir;
}

/**
 * The production build as `npm start` runs it, on a free port. Its data folder: `dataDir`; else,
 * with `fresh`, an empty one (a first start: migrations, the sample studio, the setup link);
 * else a copy of a folder after its first start (startedDataDir).
 */
export async function startServer(
  opts: { dataDir?: string; env?: Record<string, string>; fresh?: boolean } = {},
): Promise<RunningServer> {
  if (!fs.existsSync(path.join(root, "build/index.js"))) throw new Error("Run `npm run build` before the server tests");
  const dataDir = opts.dataDir ?? (opts.fresh ? tempDataDir() : startedDataDir());
  const port = await freePort();
  const url = `http://localhost:${port}`;
  let out = "";
  // Started as `npm start` starts it, with the same V8 heap limits.
  const proc = spawnBuild({ port, url, dataDir, env: opts.env });
  proc.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const server: RunningServer = {
    url,
    port,
    dataDir,
    proc,
    output: () => out,
    exited,
    stop: async (signal = "SIGTERM") => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
  // Asked every 25 ms: a refused connection costs next to nothing, and a start is seen at once.
  // (30 s: a guard against a server that never comes up, not a measure; a busy host starts slowly.)
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (proc.exitCode !== null) throw new Error(`server exited during start:\n${out}`);
    try {
      // Up once it answers: /healthz waits for the boot, and a 503 is an answer (what is failing).
      const res = await fetch(`${url}/healthz`);
      if (res.ok || res.status === 503) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  proc.kill("SIGKILL");
  throw new Error(`server did not come up:\n${out}`);
}

/**
 * For a test file whose tests start their own servers: `start` is startServer, and every server
 * still in `running` is stopped with `signal` after each test (a test that stops one itself
 * takes it out of `running`).
 */
export function serversPerTest(signal: NodeJS.Signals = "SIGTERM") {
  const running: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop(signal)));
  });
  return {
    running,
    async start(opts: Parameters<typeof startServer>[0] = {}) {
      const s = await startServer(opts);
      running.push(s);
      return s;
    },
  };
}

/** A read-only look at the server's database from the test. */
export function queryDb<T>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const db = new SQLite(path.join(dataDir, "app.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 10);

/** The five step forms of a valid booking, as a visitor without JavaScript posts them. */
export function bookingSteps(email: string): [number, Record<string, string | string[]>][] {
  return [
    [1, { selectedPackage: "essentials", name: "Ada Lovelace", email, company: "Analytical Engines", intent: "next" }],
    [2, { isNewSite: "on", primaryGoal: "portfolio", targetAudience: "Design-minded founders", intent: "next" }],
    [
      3,
      {
        inspiration1: "https://stripe.com",
        mustHaveFeatures: "Portfolio grid with filters and a blog",
        intent: "next",
      },
    ],
    [4, { preferredStartDate: inDays(20), timelineFlexibility: "flexible", intent: "next" }],
    [5, { intent: "next" }],
  ];
}

/** A visitor over HTTP with a cookie jar; `ip` is sent as X-Forwarded-For (a proxy on loopback). */
export function httpVisitor(base: string, ip?: string) {
  let cookie = "";
  const post = async (step: number, fields: Record<string, string | string[]>, signal?: AbortSignal) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
    const res = await fetch(`${base}/booking?index&step=${step}`, {
      method: "POST",
      body,
      redirect: "manual",
      signal,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: base,
        Cookie: cookie,
        ...(ip ? { "X-Forwarded-For": ip } : {}),
      },
    });
    const set = res.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    await res.arrayBuffer();
    return res;
  };
  return {
    post,
    async fillSteps(email: string) {
      for (const [step, fields] of bookingSteps(email)) {
        const res = await post(step, fields);
        if (res.status !== 302 && res.status !== 303) throw new Error(`step ${step} answered ${res.status}`);
      }
    },
    /** The first free time step 6 offers (the built-in calendar), or null (Calendly's frame, or none free). */
    async firstSlot(): Promise<string | null> {
      const page = await fetch(`${base}/booking?step=6`, {
        headers: { Cookie: cookie, ...(ip ? { "X-Forwarded-For": ip } : {}) },
      }).then((r) => r.text());
      return /name="slot"[^>]*value="([^"]+)"/.exec(page)?.[1] ?? null;
    },
    /** The confirm as a visitor without JavaScript sends it: with the first free time when step 6 offers times. */
    async confirm(signal?: AbortSignal) {
      const slot = await this.firstSlot();
      return post(6, { intent: "confirm", ...(slot ? { slot } : {}) }, signal);
    },
    get cookie() {
      return cookie;
    },
    set cookie(c: string) {
      cookie = c;
    },
  };
}

/**
 * Copies a filled-in draft n times straight into the database (each with its own id, booking id
 * and signed cookie), for tests that need many visitors at step 6 at once.
 */
export async function cloneDraft(dataDir: string, cookie: string, n: number): Promise<string[]> {
  const jar = createCookie("__booking_draft", { secrets: [SERVER_SECRET], path: "/", httpOnly: true, sameSite: "lax" });
  const id = await jar.parse(cookie);
  const db = new SQLite(path.join(dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    const row = db.prepare("select data, uploaded_files from booking_drafts where id = ?").get(id) as {
      data: string;
      uploaded_files: string;
    };
    const insert = db.prepare("insert into booking_drafts (id, booking_id, data, uploaded_files) values (?, ?, ?, ?)");
    const ids: string[] = [];
    db.transaction(() => {
      for (let i = 0; i < n; i++) {
        const draftId = `clone-${i}-${crypto.randomUUID()}`;
        insert.run(draftId, crypto.randomUUID(), row.data, row.uploaded_files);
        ids.push(draftId);
      }
    })();
    return Promise.all(ids.map(async (draftId) => (await jar.serialize(draftId)).split(";")[0]));
  } finally {
    db.close();
  }
}

/** A session row for `email` in the server's database and the cookie that carries it. */
export async function sessionCookie(
  dataDir: string,
  email: string,
  role: "buyer" | "admin" = "buyer",
): Promise<string> {
  const db = new SQLite(path.join(dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  let sid: string;
  try {
    db.prepare("insert or ignore into users (id, email) values (?, ?)").run(crypto.randomUUID(), email);
    const user = db.prepare("select id from users where email = ?").get(email) as { id: string };
    if (role === "admin")
      db.prepare("insert or replace into admin_users (id, is_super_admin) values (?, 0)").run(user.id);
    sid = crypto.randomUUID();
    db.prepare("insert into sessions (id, user_id, data, expires_at) values (?, ?, ?, ?)").run(
      sid,
      user.id,
      JSON.stringify({ userId: user.id }),
      new Date(Date.now() + 86400_000).toISOString(),
    );
  } finally {
    db.close();
  }
  return (await createCookie("__studio_session", { secrets: [SERVER_SECRET] }).serialize(sid)).split(";")[0];
}
