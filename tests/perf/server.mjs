// Shared by the perf scripts (bench, lighthouse): builds when needed and starts the production
// server on a free port with a fresh DATA_DIR (boot() migrates and seeds the demo catalogue).
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net
      .createServer()
      .on("error", reject)
      .listen(0, "127.0.0.1", () => {
        const p = s.address().port;
        s.close(() => resolve(p));
      });
  });
}

export async function waitFor(url, tries = 100) {
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

/** Runs `npm run build` when there is no server build yet. */
export function ensureBuild() {
  if (!fs.existsSync(path.join(root, "build/index.js"))) execSync("npm run build", { cwd: root, stdio: "inherit" });
}

/** The V8 flags `npm start` uses (package.json config.nodeFlags), when the project sets any. */
export function startFlags() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  return String(pkg.config?.nodeFlags ?? "")
    .split(" ")
    .filter(Boolean);
}

/**
 * Starts `node server/main.js` in production mode on a free port with a fresh temp DATA_DIR and
 * waits for /healthz (`flags`: more for Node, after `npm start`'s). `env` is the server's environment. `stop()` ends the server (SIGTERM, SIGKILL after 5 s) and removes the folder.
 */
export async function startServer({ prefix = "studio-perf-", stdout = "ignore", flags = [] } = {}) {
  ensureBuild();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const base = `http://localhost:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_URL: base,
    SESSION_SECRET: "perf-secret-0123456789abcdef0123456789",
  };
  const server = spawn(process.execPath, [...startFlags(), ...flags, "server/main.js"], {
    cwd: root,
    env,
    stdio: ["ignore", stdout, "inherit"],
  });
  const exited = new Promise((r) => server.once("exit", r));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      const timer = setTimeout(() => server.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.race([
      waitFor(`${base}/healthz`),
      exited.then((code) => {
        throw new Error(`server exited (${code}) before ${base}/healthz answered`);
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, port, dataDir, env, server, stop };
}
