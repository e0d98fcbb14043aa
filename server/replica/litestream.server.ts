import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import type { ReplicaTarget } from "#domain/replica-url";

/**
 * Litestream (issue 45.1): the `litestream` binary of the @flydotio/litestream-linux-x64 package,
 * v0.3.13, run beside the server to replicate the database continuously. The single binary carries
 * it and names the extracted file in STUDIO_LITESTREAM (server/binary.js); under `npm start` it is
 * the package's own file. See docs/decisions/043-continuous-replication.md.
 */
export function litestreamBinary(): string {
  const named = process.env.STUDIO_LITESTREAM;
  if (named) return named;
  const pkg = createRequire(import.meta.url).resolve("@flydotio/litestream-linux-x64/package.json");
  return path.join(path.dirname(pkg), "litestream");
}

/** The database file every part of the studio opens (server/db/db.server.ts). */
export const databaseFile = (dataDir: string) => path.join(dataDir, "app.db");

/** Where the replicator keeps its configuration and process id, in the data folder. */
export const replicaFolder = (dataDir: string) => path.join(dataDir, ".replica");

/** What an S3 replica needs beside REPLICA_URL: the BACKUP_S3_* endpoint, region and keys. */
export type S3Access = { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };

/** The database's part of the replica: Litestream's generations under `<replica>/db`. */
export const DB_PART = "db";

/**
 * Litestream's configuration, as JSON (YAML reads it the same, and JSON needs no quoting rules).
 * Keys are never in it: they go to the process as LITESTREAM_ACCESS_KEY_ID and
 * LITESTREAM_SECRET_ACCESS_KEY (`litestreamEnv`). WAL changes are taken every 100 ms and shipped
 * every half second: what was acknowledged a second before the machine died is on the replica
 * (with a 1 s sync a change could wait up to 1.25 s, and the kill test lost some at 0.99 s). A
 * snapshot a day, and 30 days of history for `restore replica:<time>` (as long as deleted files are
 * kept).
 */
export function litestreamConfig(dataDir: string, target: ReplicaTarget, s3: S3Access | null, addr: string | null) {
  const common = { "sync-interval": "500ms", "snapshot-interval": "24h", retention: "720h" };
  const replica =
    target.kind === "file"
      ? { type: "file", path: path.join(target.dir, DB_PART), ...common }
      : {
          type: "s3",
          bucket: target.bucket,
          path: [target.prefix, DB_PART].filter(Boolean).join("/"),
          endpoint: s3?.endpoint,
          region: s3?.region || "us-east-1",
          "force-path-style": true,
          ...common,
        };
  return {
    ...(addr ? { addr } : {}),
    logging: { level: "info", type: "text" },
    dbs: [{ path: databaseFile(dataDir), "monitor-interval": "100ms", replicas: [replica] }],
  };
}

/** The child's environment: PATH and the keys, nothing else of the server's (its secrets). */
export function litestreamEnv(s3: S3Access | null): NodeJS.ProcessEnv {
  const vars: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...(s3 ? { LITESTREAM_ACCESS_KEY_ID: s3.accessKeyId, LITESTREAM_SECRET_ACCESS_KEY: s3.secretAccessKey } : {}),
  };
  // (Remix's globals declare NODE_ENV in every ProcessEnv; Litestream reads none of it.)
  return vars as unknown as NodeJS.ProcessEnv;
}

/** Writes the configuration (0600) into DATA_DIR/.replica/ and returns its path. */
export function writeConfig(dataDir: string, name: string, config: object): string {
  const dir = replicaFolder(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/** A free port on the loopback interface, for Litestream's metrics. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A replicator a server killed with SIGKILL left running (its process id in DATA_DIR/.replica/):
 * stopped before a new one starts, so two never ship the same database. Only a process whose
 * command line is Litestream's with this folder's configuration is touched.
 */
export function stopLeftover(dataDir: string, configFile: string): void {
  const pidFile = path.join(replicaFolder(dataDir), "litestream.pid");
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, "utf8").trim());
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 1) return;
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (cmdline.some((a) => a.endsWith("litestream")) && cmdline.includes(configFile)) process.kill(pid, "SIGKILL");
  } catch {
    // Gone already, or not ours to read.
  }
}

export function recordPid(dataDir: string, child: ChildProcess): void {
  if (child.pid) fs.writeFileSync(path.join(replicaFolder(dataDir), "litestream.pid"), `${child.pid}\n`);
}

/** Runs `litestream <args>` to its end: its exit code and what it printed. */
export function runLitestream(args: string[], s3: S3Access | null): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(litestreamBinary(), args, { env: litestreamEnv(s3), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

/** Litestream's positions, from its Prometheus metrics: the shadow WAL (what it has taken) and the replica's. */
export type Positions = { shadow: [number, number]; replica: [number, number] | null };

export function positionsOf(metrics: string): Positions | null {
  const value = (name: string) => {
    const m = new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, "m").exec(metrics);
    return m ? Number(m[1]) : null;
  };
  const shadowIndex = value("litestream_shadow_wal_index");
  const shadowSize = value("litestream_shadow_wal_size");
  if (shadowIndex === null || shadowSize === null) return null;
  const replicaIndex = value("litestream_replica_wal_index");
  const replicaOffset = value("litestream_replica_wal_offset");
  return {
    shadow: [shadowIndex, shadowSize],
    replica: replicaIndex === null || replicaOffset === null ? null : [replicaIndex, replicaOffset],
  };
}

/** Whether the replica holds everything Litestream has taken from the database. */
export const caughtUp = (p: Positions) =>
  p.replica !== null && (p.replica[0] > p.shadow[0] || (p.replica[0] === p.shadow[0] && p.replica[1] >= p.shadow[1]));
