import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseReplicaUrl, type ReplicaTarget } from "#domain/replica-url";
import { createStorage } from "../../server/storage/storage.server";
import { mirrorStorage } from "../../server/replica/files.server";
import { BucketFiles } from "../../server/replica/s3-files.server";
import { bucketAt, putObjectFile } from "../../server/db/offsite.server";
import { caughtUp, positionsOf } from "../../server/replica/litestream.server";
import { filesAt, restorePoint, restoreReplica } from "../../server/replica/restore.server";
import {
  replicaProblem,
  replicaStatus,
  startReplication,
  stopReplication,
} from "../../server/replica/replicator.server";
import { freshDb, type TestDb } from "../helpers/db";
import { startS3 } from "../helpers/s3";
import { until } from "../helpers/until";

// Issue 45.1: Litestream supervised by the server (its lag, /healthz's rule, the console's banner),
// and an S3 replica against a real S3-compatible server (s3rver) as far as s3rver goes.
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const quiet = pino({ level: "silent" });
const target = (url: string) => parseReplicaUrl(url) as ReplicaTarget;

let t: TestDb | undefined;
afterEach(async () => {
  await stopReplication();
  await t?.close();
  t = undefined;
});

describe("REPLICA_URL", () => {
  it("takes s3://bucket/path and file:///path, and names what is wrong with anything else", () => {
    expect(parseReplicaUrl("s3://studio-replica/rowan/live")).toEqual({
      kind: "s3",
      bucket: "studio-replica",
      prefix: "rowan/live",
      display: "s3://studio-replica/rowan/live",
    });
    expect(parseReplicaUrl("file:///mnt/backup/studio/")).toEqual({
      kind: "file",
      dir: "/mnt/backup/studio",
      display: "file:///mnt/backup/studio",
    });
    const problems = [
      "https://x/y",
      "s3:///path",
      "s3://Bad_Bucket/x",
      "s3://key:secret@bucket/x",
      "file://host/x",
      "file:///",
      "nonsense",
    ].map((v) => ("problem" in parseReplicaUrl(v) ? (parseReplicaUrl(v) as { problem: string }).problem : "accepted"));
    expect(problems).toEqual([
      "REPLICA_URL must be s3://bucket/path or file:///path, got a https: URL",
      "REPLICA_URL must name a bucket (s3://bucket/path), got 's3:///path'",
      "REPLICA_URL's bucket must be an S3 bucket name (a-z, 0-9, dots and dashes), got 'Bad_Bucket'",
      "REPLICA_URL must not hold keys: they go in BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY",
      "REPLICA_URL must be s3://bucket/path or file:///path (a local folder: file:///srv/replica), got 'file://host/x'",
      "REPLICA_URL must name a folder other than /, got 'file:///'",
      "REPLICA_URL must be s3://bucket/path or file:///path, got 'nonsense'",
    ]);
    expect(() => restorePoint("replica:2027-01-05T10:00:00")).toThrow("with its zone");
    expect(restorePoint("replica:2027-01-05T10:00:00Z")?.toISOString()).toBe("2027-01-05T10:00:00.000Z");
  });

  it("reads Litestream's positions from its metrics", () => {
    const metrics = (replica: string) =>
      `litestream_shadow_wal_index{db="/d/app.db"} 2\nlitestream_shadow_wal_size{db="/d/app.db"} 4152\n${replica}`;
    const behind = positionsOf(
      metrics(
        'litestream_replica_wal_index{db="/d/app.db",name="file"} 2\nlitestream_replica_wal_offset{db="/d/app.db",name="file"} 32\n',
      ),
    )!;
    expect(caughtUp(behind)).toBe(false);
    const level = positionsOf(
      metrics(
        'litestream_replica_wal_index{db="/d/app.db",name="file"} 2\nlitestream_replica_wal_offset{db="/d/app.db",name="file"} 4152\n',
      ),
    )!;
    expect(caughtUp(level)).toBe(true);
    expect(caughtUp(positionsOf(metrics(""))!)).toBe(false);
  });

  it("picks the files of a moment: written by then, and not yet removed", () => {
    const live = [
      { key: "booking-files/a.png", bytes: 1, writtenAt: 1_000 },
      { key: "booking-files/later.png", bytes: 1, writtenAt: 5_000 },
    ];
    const trash = [
      { key: "booking-files/gone-early.png", bytes: 1, writtenAt: 500, deletedAt: 1_500 },
      { key: "booking-files/gone-late.png", bytes: 1, writtenAt: 500, deletedAt: 4_000 },
    ];
    expect(filesAt({ live, trash }, new Date(2_000)).map((f) => f.key)).toEqual([
      "booking-files/a.png",
      "booking-files/gone-late.png",
    ]);
    expect(filesAt({ live, trash }, null).map((f) => f.key)).toEqual([
      "booking-files/a.png",
      "booking-files/later.png",
    ]);
  });
});

describe("the replicator", () => {
  it("says how far behind a replica that cannot be written is, and fails /healthz after 5 minutes over 60 s", async () => {
    t = await freshDb();
    let offset = 0;
    const now = () => Date.now() + offset;
    // A folder Litestream cannot make: it keeps failing, the replica never catches up.
    await startReplication({
      dataDir: t.dataDir,
      target: target("file:///proc/studio-replica"),
      s3: null,
      log: quiet,
      now,
    });
    await until("Litestream's complaint", () => replicaStatus()?.lastError);
    expect(replicaStatus()).toMatchObject({ target: "file:///proc/studio-replica", lastSyncAt: null });
    expect(replicaStatus()?.failing).toBeNull();
    offset = 61_000;
    await until("the lag over a minute", () => (replicaStatus()?.lagSeconds ?? 0) > 60);
    expect(replicaStatus()?.failing).toMatch(/^the replica is \d+ s behind: /);
    expect(replicaProblem()).toBeNull();
    offset = 61_000 + 5 * 60_000 + 1_000;
    const problem = await until("/healthz's problem", () => replicaProblem());
    expect(problem).toMatch(
      /^the replica file:\/\/\/proc\/studio-replica has been more than 60 s behind for 5 minutes/,
    );
  });

  it("catches up a writable replica and says so", async () => {
    t = await freshDb();
    const dir = tmp("replica-");
    await startReplication({ dataDir: t.dataDir, target: target(`file://${dir}`), s3: null, log: quiet });
    await t.db.insertInto("studio_flags").values({ key: "replica-test", value: "1" }).execute();
    const status = await until("the replica up to date", () => {
      const s = replicaStatus();
      return s?.state === "replicating" && s.lastSyncAt ? s : null;
    });
    expect(status).toMatchObject({ lagSeconds: 0, failing: null, restarts: 0 });
    expect(fs.existsSync(path.join(dir, "db", "generations"))).toBe(true);
  });
});

describe("the replicator's supervision", () => {
  it("starts Litestream again when it dies, and the replica catches up", async () => {
    t = await freshDb();
    const dir = tmp("replica-");
    await startReplication({ dataDir: t.dataDir, target: target(`file://${dir}`), s3: null, log: quiet });
    await until("the first sync", () => replicaStatus()?.lastSyncAt);
    const pidFile = path.join(t.dataDir, ".replica", "litestream.pid");
    const first = Number(fs.readFileSync(pidFile, "utf8"));
    process.kill(first, "SIGKILL");
    await until(
      "Litestream started again",
      () => replicaStatus()?.restarts === 1 && Number(fs.readFileSync(pidFile, "utf8")) !== first,
    );
    expect(replicaStatus()?.lastError).toMatch(/^Litestream stopped \(SIGKILL\); starting it again in 1 s$/);
    await t.db.insertInto("studio_flags").values({ key: "after-restart", value: "1" }).execute();
    const caught = await until("caught up again", () => {
      const s = replicaStatus();
      return s?.state === "replicating" && s.lagSeconds === 0 ? s : null;
    });
    expect(caught.failing).toBeNull();
  });
});

describe("an S3 replica (s3rver)", () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    s3 = await startS3("studio-replica");
  });
  afterAll(async () => {
    await s3?.close();
  });
  const access = () => ({
    endpoint: s3.endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  });

  it("copies stored files as they change (removed ones to the trash) and brings them back", async () => {
    t = await freshDb();
    const bucket = new BucketFiles(
      target("s3://studio-replica/rowan") as Extract<ReplicaTarget, { kind: "s3" }>,
      access(),
    );
    const mirror = mirrorStorage(t.dataDir, bucket, quiet);
    await mirror.started;
    const storage = createStorage(t.dataDir);
    storage.put("booking-files", "b1/brief.txt", Buffer.from("the brief"));
    storage.put("booking-files", "b1/old.txt", Buffer.from("old"));
    await until("both copied", () => mirror.progress().pending === 0);
    storage.remove("booking-files", "b1/old.txt");
    await until("the queue empty", () => mirror.progress().pending === 0 && mirror.progress().lastError === null);
    await mirror.stop();
    // What else a bucket may hold is not a stored file: never listed for a restore.
    const planted = tmp("planted-");
    fs.writeFileSync(path.join(planted, "x"), "x");
    await putObjectFile(
      bucketAt(access(), "studio-replica", ""),
      "rowan/files/not-a-bucket/x.txt",
      path.join(planted, "x"),
    );
    const list = await bucket.list();
    expect(list.live.map((f) => f.key)).toEqual(["booking-files/b1/brief.txt"]);
    expect(list.trash.map((f) => f.key)).toEqual(["booking-files/b1/old.txt"]);
    const dest = path.join(tmp("fetched-"), "brief.txt");
    await bucket.fetch(list.live[0], dest);
    expect(fs.readFileSync(dest, "utf8")).toBe("the brief");
    expect(await bucket.purgeTrash(Date.now() + 1)).toBe(1);
    expect((await bucket.list()).trash).toEqual([]);
  });

  it("replicates the database with Litestream to the bucket; a restore goes as far as s3rver's listing lets it", async () => {
    t = await freshDb();
    await startReplication({
      dataDir: t.dataDir,
      target: target("s3://studio-replica/db-test"),
      s3: access(),
      log: quiet,
    });
    const status = await until("Litestream's first sync to s3rver", () => {
      const s = replicaStatus();
      return s?.lastSyncAt ? s : null;
    });
    expect(status.failing).toBeNull();
    await stopReplication();
    const restored = tmp("restored-");
    const outcome = await restoreReplica({
      dataDir: restored,
      target: target("s3://studio-replica/db-test"),
      s3: access(),
      at: null,
      say: () => {},
    }).then(
      () => "restored",
      (error: Error) => error.message,
    );
    // s3rver lists what Litestream wrote but does not answer every request its restore makes
    // (README: "Continuous replication"); a real bucket restores. Either way the outcome is said.
    expect(outcome === "restored" || /Litestream could not restore|holds no database/.test(outcome)).toBe(true);
    console.log(`[replica] restore from s3rver: ${outcome}`);
  });
});
