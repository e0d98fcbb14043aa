import fs from "node:fs";
import type { ReplicaTarget } from "#domain/replica-url";
import { createStorage, StoragePathError } from "../storage/storage.server";
import { FolderFiles, type FileStore, type ReplicaFile } from "./files.server";
import {
  DB_PART,
  type S3Access,
  databaseFile,
  litestreamConfig,
  runLitestream,
  writeConfig,
} from "./litestream.server";
import { BucketFiles } from "./s3-files.server";

export class ReplicaRestoreError extends Error {}

/** The replica's files: a folder's, or a bucket's. */
export function fileStoreFor(target: ReplicaTarget, s3: S3Access | null): FileStore {
  if (target.kind === "file") return new FolderFiles(target.dir);
  if (!s3) throw new ReplicaRestoreError("an S3 replica needs BACKUP_S3_ENDPOINT and its keys");
  return new BucketFiles(target, s3);
}

/** `replica:latest` or `replica:2027-01-05T10:00:00Z`: the moment to restore, or null for the latest. */
export function restorePoint(spec: string): Date | null {
  const at = spec.slice("replica:".length);
  if (at === "latest") return null;
  const date = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(at) ? new Date(at) : null;
  if (!date || Number.isNaN(date.getTime()))
    throw new ReplicaRestoreError(
      `${spec} is not replica:latest or replica:<time> with its zone, such as replica:2027-01-05T10:00:00Z`,
    );
  return date;
}

/** The files to bring back for a restore to `at` (null: now): live ones then written, and those removed after. */
export function filesAt(list: { live: ReplicaFile[]; trash: ReplicaFile[] }, at: Date | null): ReplicaFile[] {
  if (!at) return list.live;
  const t = at.getTime();
  const chosen = new Map<string, ReplicaFile>();
  for (const f of list.live) if (f.writtenAt <= t) chosen.set(f.key, f);
  // Removed after the moment: it existed then (the latest removal of a path wins its place).
  for (const f of list.trash.sort((a, b) => (a.deletedAt ?? 0) - (b.deletedAt ?? 0)))
    if ((f.deletedAt ?? 0) > t && f.writtenAt <= t && !chosen.has(f.key)) chosen.set(f.key, f);
  return [...chosen.values()];
}

/**
 * `studio restore replica:latest|replica:<time>` (issue 45.1): the database from Litestream's
 * replica (`litestream restore`, to the moment given or the latest), then the stored files that
 * existed then, into a data folder that holds neither a database nor stored files (a new machine's).
 */
export async function restoreReplica(opts: {
  dataDir: string;
  target: ReplicaTarget;
  s3: S3Access | null;
  at: Date | null;
  say: (line: string) => void;
}): Promise<{ files: number }> {
  const { dataDir, target, s3, at } = opts;
  const db = databaseFile(dataDir);
  const storage = createStorage(dataDir);
  const stored = fs.existsSync(storage.root) && fs.readdirSync(storage.root).some((b) => !b.startsWith("."));
  if (fs.existsSync(db) || stored)
    throw new ReplicaRestoreError(
      `restoring a replica needs an empty data folder, and ${dataDir} already holds ${fs.existsSync(db) ? "a database" : "stored files"}: start from a new DATA_DIR (or move this one away)`,
    );
  fs.mkdirSync(dataDir, { recursive: true });
  const config = writeConfig(dataDir, "restore.json", litestreamConfig(dataDir, target, s3, null));
  const args = ["restore", "-config", config, "-no-expand-env", "-o", db];
  if (at) args.push("-timestamp", at.toISOString());
  const { code, output } = await runLitestream([...args, db], s3);
  fs.rmSync(config, { force: true });
  // What Litestream's restore leaves of its working copy (its -wal and -shm).
  for (const name of fs.readdirSync(dataDir))
    if (name.startsWith("app.db.tmp")) fs.rmSync(`${dataDir}/${name}`, { force: true });
  if (code !== 0) {
    fs.rmSync(db, { force: true });
    const reason = /no matching backups|no generation|no snapshots available/i.test(output)
      ? `the replica ${target.display} holds no database${at ? ` at ${at.toISOString()}` : ""} (Litestream: ${lastLine(output)})`
      : `Litestream could not restore from ${target.display}: ${lastLine(output)}`;
    throw new ReplicaRestoreError(reason);
  }
  opts.say(`restored the database from ${target.display}/${DB_PART}${at ? ` as it was at ${at.toISOString()}` : ""}`);
  const files = filesAt(await fileStoreFor(target, s3).list(), at);
  const store = fileStoreFor(target, s3);
  let restored = 0;
  const refused: string[] = [];
  for (const f of files) {
    const [bucket, ...rest] = f.key.split("/");
    // The same checks as every stored file's path: nothing outside its bucket's folder. A key a
    // bucket holds that no stored file could have (another bucket, `..`) is named and left.
    let dest: string;
    try {
      dest = storage.resolveSafe(bucket, rest.join("/"));
    } catch (error) {
      if (!(error instanceof StoragePathError)) throw error;
      refused.push(f.key);
      continue;
    }
    await store.fetch(f, dest);
    restored++;
  }
  opts.say(`restored ${restored} stored file${restored === 1 ? "" : "s"}`);
  if (refused.length)
    opts.say(
      `left ${refused.length} replica file${refused.length === 1 ? "" : "s"} that no stored file could be: ${refused.slice(0, 5).join(", ")}`,
    );
  return { files: restored };
}

const lastLine = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter(Boolean)
    .at(-1)
    ?.replace(/^time=\S+ level=\w+ /, "") ?? "no output";
