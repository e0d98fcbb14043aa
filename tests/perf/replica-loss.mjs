// What a dying VPS loses with continuous replication (issue 45.2): the production build serves with
// REPLICA_URL=file://… while visitors book (the six steps over HTTP, as without JavaScript, four at a
// time), then the server and its Litestream are SIGKILLed together, the replica is restored into a
// new folder (`restore replica:latest`, as on a new machine) and the acknowledged bookings are looked
// for. The loss window: how long before the kill the oldest acknowledged booking that is missing was
// acknowledged (0 when none is). Used by tests/server/replica-kill.test.ts and `npm run bench`.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";

const root = path.resolve(import.meta.dirname, "../..");

/** @returns {Promise<number>} */
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });

/** @param {number} d */
const inDays = (d) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 10);

/**
 * @param {string} email
 * @returns {[number, Record<string, string>][]}
 */
function steps(email) {
  return [
    [1, { selectedPackage: "essentials", name: "Ada Lovelace", email, company: "Analytical Engines", intent: "next" }],
    [2, { isNewSite: "on", primaryGoal: "portfolio", targetAudience: "Design-minded founders", intent: "next" }],
    [3, { inspiration1: "https://stripe.com", mustHaveFeatures: "Portfolio grid with filters", intent: "next" }],
    [4, { preferredStartDate: inDays(20), timelineFlexibility: "flexible", intent: "next" }],
    [5, { intent: "next" }],
    [6, { intent: "confirm" }],
  ];
}

/**
 * One visitor's booking over HTTP: its time of acknowledgement (ms), or null.
 * @param {string} base
 * @param {string} email
 * @param {string} ip
 * @param {AbortSignal} signal
 */
async function book(base, email, ip, signal) {
  let cookie = "";
  for (const [step, fields] of steps(email)) {
    const res = await fetch(`${base}/booking?index&step=${step}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      redirect: "manual",
      signal,
      headers: { Origin: base, Cookie: cookie, "X-Forwarded-For": ip },
    });
    const set = res.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    await res.arrayBuffer();
    if (step === 6) return res.status === 302 && res.headers.get("location") === "/booking/success" ? Date.now() : null;
    if (res.status !== 302 && res.status !== 303) return null;
  }
  return null;
}

/**
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number | null, out: string }>}
 */
function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.once("exit", (code) => resolve({ code, out }));
  });
}

/**
 * One kill: `seconds` of bookings, then SIGKILL of the server and Litestream together.
 * @returns {Promise<{ acknowledged: number, missing: number, missingOlderThan1s: number, windowMs: number }>}
 */
export async function replicaLoss({ seconds = 4, workers = 4 } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "studio-replica-loss-"));
  const dataDir = path.join(work, "data");
  const replica = path.join(work, "replica");
  const restored = path.join(work, "restored");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const nodeFlags = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).config.nodeFlags.split(" ");
  const env = /** @type {NodeJS.ProcessEnv} */ ({
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: base,
    DATA_DIR: dataDir,
    SESSION_SECRET: crypto.randomBytes(32).toString("hex"),
    REPLICA_URL: `file://${replica}`,
    CALENDLY_URL: "https://calendly.com/studio-test/consultation",
  });
  const server = spawn(process.execPath, [...nodeFlags.filter(Boolean), "server/main.js"], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr.on("data", (/** @type {Buffer} */ c) => (stderr += c));
  const exited = new Promise((resolve) => server.once("exit", resolve));
  try {
    // Up, and the replica's first generation written (what any later write is shipped after).
    for (const deadline = Date.now() + 30_000; ;) {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${stderr}`);
      const ok = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok && fs.existsSync(path.join(replica, "db", "generations"))) break;
      if (Date.now() > deadline) throw new Error(`the server or its replica did not come up:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    /** @type {Map<string, number>} */
    const acks = new Map();
    const stop = new AbortController();
    const until = Date.now() + seconds * 1000;
    let n = 0;
    const worker = async () => {
      while (Date.now() < until && !stop.signal.aborted) {
        const i = n++;
        const email = `loss-${i}@example.com`;
        const at = await book(base, email, `10.9.${(i >> 8) & 255}.${i & 255}`, stop.signal).catch(() => null);
        if (at !== null) acks.set(email, at);
      }
    };
    const running = Array.from({ length: workers }, worker);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    // The machine dies: both processes at once, whatever they were doing.
    const litestream = Number(fs.readFileSync(path.join(dataDir, ".replica", "litestream.pid"), "utf8"));
    const killAt = Date.now();
    server.kill("SIGKILL");
    process.kill(litestream, "SIGKILL");
    stop.abort();
    await Promise.all(running);
    await exited;
    for (const [email, at] of acks) if (at > killAt) acks.delete(email);

    const restoreEnv = /** @type {NodeJS.ProcessEnv} */ (
      /** @type {unknown} */ ({ PATH: process.env.PATH, DATA_DIR: restored, REPLICA_URL: `file://${replica}` })
    );
    const { code, out } = await run(["server/cli-main.js", "restore", "replica:latest"], restoreEnv);
    if (code !== 0) throw new Error(`restore replica:latest failed (${code}):\n${out}`);
    const db = new SQLite(path.join(restored, "app.db"), { readonly: true });
    const present = new Set(
      /** @type {string[]} */ (db.prepare("select email from bookings where email like 'loss-%'").pluck().all()),
    );
    db.close();
    const missing = [...acks].filter(([email]) => !present.has(email));
    return {
      acknowledged: acks.size,
      missing: missing.length,
      missingOlderThan1s: missing.filter(([, at]) => killAt - at > 1000).length,
      windowMs: missing.length ? Math.max(...missing.map(([, at]) => killAt - at)) : 0,
    };
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
    fs.rmSync(work, { recursive: true, force: true });
  }
}
