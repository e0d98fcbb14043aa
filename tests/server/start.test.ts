/**
 * `npm start` as the README gives it: on a fresh machine with nothing set it serves the site on
 * the embedded defaults; declared as production without its secrets it refuses to start.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { freePort, tempDataDir } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "../..");

function npmStart(env: Record<string, string>) {
  // Only what the test gives: no NODE_ENV unless the test sets one.
  const childEnv: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: os.tmpdir(), ...env };
  const proc = spawn("npm", ["start"], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  // npm runs node in a child of its own: stop the whole group.
  const stop = () => {
    try {
      process.kill(-proc.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    return exited;
  };
  return { output: () => out, exited, stop, pid: proc.pid! };
}

it("with nothing set, serves the site locally: secret generated once into DATA_DIR, links from localhost", async () => {
  const port = await freePort();
  const dataDir = tempDataDir();
  const server = npmStart({ PORT: String(port), DATA_DIR: dataDir });
  try {
    let home: Response | undefined;
    for (let i = 0; i < 150 && !home; i++) {
      home = await fetch(`http://localhost:${port}/`).catch(() => undefined);
      if (!home) await new Promise((r) => setTimeout(r, 100));
    }
    expect(home?.status, server.output()).toBe(200);
    expect(await home!.text()).toContain(`<link rel="canonical" href="http://localhost:${port}/"`);
    expect(fs.readFileSync(path.join(dataDir, ".session-secret"), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(server.output()).toContain(`running locally at http://localhost:${port}`);
  } finally {
    await server.stop();
  }
});

it("declared as production without SESSION_SECRET and APP_URL, refuses to start and names them", async () => {
  const server = npmStart({ NODE_ENV: "production", PORT: String(await freePort()), DATA_DIR: tempDataDir() });
  expect(await server.exited).not.toBe(0);
  expect(server.output()).toContain("Refusing to start in production: missing SESSION_SECRET and APP_URL");
});

it("SIGTERM to npm itself reaches the server: it finishes, and no node is left behind (issue 17.6)", async () => {
  const port = await freePort();
  const dataDir = tempDataDir();
  const server = npmStart({ PORT: String(port), DATA_DIR: dataDir });
  let home: Response | undefined;
  for (let i = 0; i < 150 && !home; i++) {
    home = await fetch(`http://localhost:${port}/`).catch(() => undefined);
    if (!home) await new Promise((r) => setTimeout(r, 100));
  }
  expect(home?.status, server.output()).toBe(200);
  const pids = () =>
    fs
      .readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return (
            fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes("server/main.js") &&
            fs.readFileSync(`/proc/${p}/environ`, "utf8").includes(`DATA_DIR=${dataDir}`)
          );
        } catch {
          return false;
        }
      });
  expect(pids().length).toBeGreaterThan(0);
  // As a process manager does: the signal goes to npm alone, not to its process group.
  process.kill(server.pid, "SIGTERM");
  expect(await server.exited).not.toBeUndefined();
  for (let i = 0; i < 100 && pids().length; i++) await new Promise((r) => setTimeout(r, 100));
  expect(pids(), "a server process outlived npm").toEqual([]);
  expect(server.output()).toContain("[server] SIGTERM: finishing in-flight requests");
}, 30_000);
