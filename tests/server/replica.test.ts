/**
 * Continuous replication on the production build (issue 45.1): with REPLICA_URL=file://…, what the
 * server writes (a booking, an uploaded file, a file removed) reaches the replica by itself, and
 * `restore replica:latest` and `replica:<time>` bring the database and the files of that moment
 * back into an empty folder, as on a new machine. The kill test is tests/server/replica-kill.test.ts.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { httpVisitor, queryDb, serversPerTest, type RunningServer } from "../helpers/server";
import { until } from "../helpers/until";

const { start } = serversPerTest();
const root = path.resolve(import.meta.dirname, "../..");
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

function restore(spec: string, replica: string, dataDir: string) {
  return spawnSync(process.execPath, ["server/cli-main.js", "restore", spec], {
    cwd: root,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      REPLICA_URL: `file://${replica}`,
    } as unknown as NodeJS.ProcessEnv,
  });
}

/** Uploads `name` at step 5 of the visitor's draft; answers the stored file's path in its bucket. */
async function upload(server: RunningServer, v: ReturnType<typeof httpVisitor>, name: string) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("files", new Blob([PNG], { type: "image/png" }), name);
  const res = await fetch(`${server.url}/booking?index&step=5`, {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { Origin: server.url, Cookie: v.cookie, "X-Forwarded-For": "198.51.100.9" },
  });
  expect(res.status).toBe(302);
  const [draft] = queryDb<{ uploaded_files: string }>(server.dataDir, "select uploaded_files from booking_drafts");
  const files = JSON.parse(draft.uploaded_files) as { path: string; name: string }[];
  return files.find((f) => f.name === name)!.path;
}

it("replicates as the server writes, and restores the latest state or an earlier moment into an empty folder", async () => {
  const replica = fs.mkdtempSync(path.join(os.tmpdir(), "studio-replica-"));
  const server = await start({
    env: { REPLICA_URL: `file://${replica}`, CALENDLY_URL: "https://calendly.com/studio-test/consultation" },
  });
  expect(server.output()).toContain(`replica: on (file://${replica})`);
  const v = httpVisitor(server.url, "198.51.100.9");
  await v.fillSteps("first@example.com");
  const kept = await upload(server, v, "brief.png");
  const dropped = await upload(server, v, "old-logo.png");
  const replicated = (p: string) => fs.existsSync(path.join(replica, "files", "booking-files", p));
  await until("both uploads in the replica", () => replicated(kept) && replicated(dropped));
  // The moment to go back to: both files stored, no booking confirmed yet.
  await new Promise((r) => setTimeout(r, 1_500));
  const before = new Date();
  await new Promise((r) => setTimeout(r, 1_500));
  const removed = await fetch(`${server.url}/booking?index&step=5`, {
    method: "POST",
    body: new URLSearchParams({ remove: dropped }),
    redirect: "manual",
    headers: { Origin: server.url, Cookie: v.cookie, "X-Forwarded-For": "198.51.100.9" },
  });
  expect(removed.status).toBe(302);
  expect((await v.confirm()).status).toBe(302);
  await until("the removal in the replica's trash", () => !replicated(dropped));
  // The console's and /healthz's view: caught up, nothing failing.
  await new Promise((r) => setTimeout(r, 1_500));
  const health = (await (await fetch(`${server.url}/healthz`)).json()) as { status: string };
  expect(health.status).toBe("ok");
  await server.stop();

  const latest = fs.mkdtempSync(path.join(os.tmpdir(), "studio-restored-"));
  const now = restore("replica:latest", replica, latest);
  expect(now.stderr).toBe("");
  expect(now.status).toBe(0);
  expect(now.stdout).toContain("restored the database from");
  expect(queryDb<{ email: string }>(latest, "select email from bookings").map((b) => b.email)).toEqual([
    "first@example.com",
  ]);
  expect(fs.existsSync(path.join(latest, "storage", "booking-files", kept))).toBe(true);
  expect(fs.existsSync(path.join(latest, "storage", "booking-files", dropped))).toBe(false);
  expect(fs.readFileSync(path.join(latest, "storage", "booking-files", kept)).equals(PNG)).toBe(true);
  // The sample studio's own files came along (they were in storage before replication saw them).
  expect(fs.existsSync(path.join(latest, "storage", "template-files", "spark.zip"))).toBe(true);

  const earlier = fs.mkdtempSync(path.join(os.tmpdir(), "studio-restored-"));
  const then = restore(`replica:${before.toISOString()}`, replica, earlier);
  expect(then.status, then.stderr).toBe(0);
  expect(queryDb<{ n: number }>(earlier, "select count(*) n from bookings")[0].n).toBe(0);
  expect(fs.existsSync(path.join(earlier, "storage", "booking-files", dropped))).toBe(true);

  // Into a folder that holds data: refused, nothing touched.
  const again = restore("replica:latest", replica, latest);
  expect(again.status).toBe(1);
  expect(again.stderr).toContain("restoring a replica needs an empty data folder");
});

it("refuses a REPLICA_URL it cannot use, at start, naming it", async () => {
  const bad = [
    ["ftp://host/x", "REPLICA_URL must be s3://bucket/path or file:///path, got a ftp: URL"],
    ["s3:///path", "REPLICA_URL must name a bucket (s3://bucket/path)"],
    ["s3://bucket/path", "REPLICA_URL s3://bucket/path replicates with the BACKUP_S3_* endpoint and keys"],
  ];
  for (const [value, message] of bad) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bad-"));
    const r = spawnSync(process.execPath, ["server/main.js"], {
      cwd: root,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        REPLICA_URL: value,
      } as NodeJS.ProcessEnv,
      timeout: 30_000,
    });
    expect(r.status, value).toBe(1);
    expect(r.stderr + r.stdout, value).toContain(message);
    // Nothing written: no database, no replica configuration.
    expect(fs.readdirSync(dataDir), value).toEqual([]);
  }
});
