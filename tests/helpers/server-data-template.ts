/**
 * Vitest globalSetup of the server suites (vitest.server.config.ts), after the build is current
 * (build-if-stale.ts): one data folder as the production server leaves it after its first start
 * (migrated, the sample studio seeded, its files written), made once per run by starting the build
 * on an empty folder and stopping it. startServer() (tests/helpers/server.ts) copies it for each
 * server a test starts without a data folder of its own, instead of every start migrating and
 * seeding again; a test of the first start itself passes `fresh: true` (or its own folder).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The data folder of a production server after its first start (copied, never used in place). */
    serverDataTemplate: string;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
/** The session secret of every server the tests start (tests/helpers/server.ts). */
export const SERVER_SECRET = "server-tests-secret-0123456789abcdef0123456789";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The production build started as `npm start` starts it (the same V8 heap limits, production
 * settings, this run's session secret), on `port`, with `env` added; its output piped.
 */
export function spawnBuild(opts: { port: number; url: string; dataDir: string; env?: Record<string, string> }) {
  const nodeFlags = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { config: { nodeFlags: string } }
  ).config.nodeFlags
    .split(" ")
    .filter(Boolean);
  // SERVER_CPU_PROF=DIR: each server writes a V8 CPU profile into DIR when it stops (what a test's
  // requests cost the server; docs/performance.md).
  const profile = process.env.SERVER_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SERVER_CPU_PROF}`] : [];
  return spawn(process.execPath, [...nodeFlags, ...profile, "server/main.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(opts.port),
      APP_URL: opts.url,
      DATA_DIR: opts.dataDir,
      SESSION_SECRET: SERVER_SECRET,
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Starts the build on an empty folder as startServer() would, waits until it answers, stops it. */
async function firstStart(dataDir: string) {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const proc = spawnBuild({ port, url, dataDir });
  let out = "";
  proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  try {
    for (let i = 0; ; i++) {
      if (proc.exitCode !== null) throw new Error(`the server exited during its first start:\n${out}`);
      const res = await fetch(`${url}/healthz`).catch(() => null);
      if (res?.ok) break;
      if (i >= 600) throw new Error(`the server did not answer within 30 s of its first start:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    proc.kill("SIGTERM");
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the server's first start ended with ${code}:\n${out}`);
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-server-template-"));
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir);
  await firstStart(dataDir);
  project.provide("serverDataTemplate", dataDir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
