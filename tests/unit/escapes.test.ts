import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** issue 40.1: an error that escapes a request's handling is one JSON line with its id, and the process goes on. */
it("an error escaping a request is logged with its id and drops only that request; one outside any request stops the process", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", "tests/helpers/escape-probe.ts"], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH, LOG_FORMAT: "json", NODE_ENV: "production" },
  });
  const lines = run.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  // Every line of stdout is JSON (JSON.parse above would throw); nothing raw on stderr.
  expect(run.stderr).toBe("");
  const escapes = lines.filter((l) => l.level === 50);
  expect(escapes).toHaveLength(2);
  for (const l of escapes) {
    expect(l.reqId).toBe("req-probe-1");
    expect(String(l.msg)).toContain("that request is dropped and the server goes on");
  }
  expect(escapes.map((l) => (l.err as { message: string }).message).sort()).toEqual([
    "Unexpected end of form",
    "a rejection nobody awaited",
  ]);
  expect(lines.filter((l) => l.probe === "dropped req-probe-1")).toHaveLength(2);
  // The process was still serving after both.
  const alive = lines.findIndex((l) => l.probe === "still serving");
  expect(alive).toBeGreaterThan(lines.indexOf(escapes[1]));
  // Outside any request: one fatal line, exit 1.
  const fatal = lines.filter((l) => l.level === 60);
  expect(fatal).toHaveLength(1);
  expect(fatal[0].reqId).toBeUndefined();
  expect((fatal[0].err as { message: string }).message).toBe("a fault of the process itself");
  expect(run.status).toBe(1);
});
