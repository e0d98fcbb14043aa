import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import { BUCKETS, createStorage, watchStorage, type StorageChange } from "../storage/storage.server";

/**
 * The stored files' part of the replica (issue 45.1): each file copied to `<replica>/files/<bucket>/
 * <path>` as it is written, and moved to `<replica>/trash/<deleted at, ms>/<bucket>/<path>` when it is
 * removed, kept there 30 days (Litestream keeps the database's history as long), so that a restore
 * to a moment of the last 30 days finds the files that existed then. A file replica is a folder
 * (`FolderFiles`), an S3 one a bucket (server/replica/s3-files.server.ts).
 */
export type ReplicaFile = {
  /** `<bucket>/<path>`, as stored under DATA_DIR/storage/. */
  key: string;
  bytes: number;
  writtenAt: number;
  /** For a file in the trash: when it was removed. */
  deletedAt?: number;
};

export interface FileStore {
  put(key: string, file: string): Promise<void>;
  trash(key: string, at: number): Promise<void>;
  /** The live files, and those in the trash. */
  list(): Promise<{ live: ReplicaFile[]; trash: ReplicaFile[] }>;
  /** Copies one (live or trashed) to `dest`. */
  fetch(entry: ReplicaFile, dest: string): Promise<void>;
  /** Drops what was removed before `before` (ms). */
  purgeTrash(before: number): Promise<number>;
}

export const KEEP_DELETED_MS = 30 * 24 * 3_600_000;

/** A key a stored file could have: one of the buckets, then segments without `.`, `..` or odd characters. */
export const safeKey = (key: string) =>
  key.split("/").every((s) => s && s !== "." && s !== ".." && !s.includes("\0") && !s.includes("\\")) &&
  BUCKETS.some((b) => key.startsWith(`${b}/`));

/** A folder replica (file:///path): files/ and trash/ beside Litestream's db/. */
export class FolderFiles implements FileStore {
  constructor(private readonly root: string) {}

  private live = (key: string) => path.join(this.root, "files", key);

  async put(key: string, file: string): Promise<void> {
    const dest = this.live(key);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    const tmp = `${dest}.${crypto.randomBytes(6).toString("hex")}.part`;
    try {
      await fs.promises.copyFile(file, tmp);
      const fd = await fs.promises.open(tmp, "r+");
      await fd.sync().finally(() => fd.close());
      await fs.promises.rename(tmp, dest);
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  async trash(key: string, at: number): Promise<void> {
    const dest = path.join(this.root, "trash", String(at), key);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    try {
      await fs.promises.rename(this.live(key), dest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  async list(): Promise<{ live: ReplicaFile[]; trash: ReplicaFile[] }> {
    const walk = async (dir: string, rel: string, out: ReplicaFile[], deletedAt?: number) => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const childRel = rel ? `${rel}/${entry.name}` : entry.name;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full, childRel, out, deletedAt);
        else if (entry.isFile() && !entry.name.endsWith(".part") && safeKey(childRel)) {
          const stat = await fs.promises.stat(full);
          out.push({ key: childRel, bytes: stat.size, writtenAt: stat.mtimeMs, ...(deletedAt ? { deletedAt } : {}) });
        }
      }
    };
    const live: ReplicaFile[] = [];
    await walk(path.join(this.root, "files"), "", live);
    const trash: ReplicaFile[] = [];
    for (const at of await fs.promises.readdir(path.join(this.root, "trash")).catch(() => [] as string[]))
      if (/^\d+$/.test(at)) await walk(path.join(this.root, "trash", at), "", trash, Number(at));
    return { live, trash };
  }

  async fetch(entry: ReplicaFile, dest: string): Promise<void> {
    const source =
      entry.deletedAt === undefined
        ? this.live(entry.key)
        : path.join(this.root, "trash", String(entry.deletedAt), entry.key);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    await fs.promises.copyFile(source, dest);
  }

  async purgeTrash(before: number): Promise<number> {
    let purged = 0;
    for (const at of await fs.promises.readdir(path.join(this.root, "trash")).catch(() => [] as string[]))
      if (/^\d+$/.test(at) && Number(at) < before) {
        await fs.promises.rm(path.join(this.root, "trash", at), { recursive: true, force: true });
        purged++;
      }
    return purged;
  }
}

/**
 * Copies the storage's changes to `store` in the order they happen, one at a time; a failure is
 * tried again every 5 s (the queue waits; the status says how many are pending). At start, every
 * stored file the replica lacks (written while no server ran, or before replication was on) is
 * queued; the trash is purged of what is older than 30 days then and every day.
 */
export function mirrorStorage(dataDir: string, store: FileStore, log: Logger) {
  const root = createStorage(dataDir).root;
  const queue: StorageChange[] = [];
  let lastError: string | null = null;
  let running = false;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  async function apply(change: StorageChange): Promise<void> {
    const key = `${change.bucket}/${change.relPath}`;
    if (change.kind === "remove") return store.trash(key, Date.now());
    // Removed again before its turn: its removal follows in the queue.
    if (!fs.existsSync(change.file)) return;
    await store.put(key, change.file);
  }

  async function drain(): Promise<void> {
    if (running || stopped) return;
    running = true;
    try {
      while (queue.length && !stopped) {
        try {
          await apply(queue[0]);
          queue.shift();
          lastError = null;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (message !== lastError)
            log.warn(`[replica] a stored file was not copied (retrying every 5 s): ${message}`);
          lastError = message;
          retry = setTimeout(() => {
            retry = null;
            void drain();
          }, 5_000);
          retry.unref();
          return;
        }
      }
    } finally {
      running = false;
    }
  }

  const unwatch = watchStorage((change) => {
    queue.push(change);
    void drain();
  });

  async function catchUp(): Promise<void> {
    const { live } = await store.list();
    const there = new Map(live.map((f) => [f.key, f.bytes]));
    for (const bucket of BUCKETS) {
      for (const relPath of createStorage(dataDir).list(bucket)) {
        const file = path.join(root, bucket, relPath);
        const size = fs.statSync(file, { throwIfNoEntry: false })?.size;
        if (size !== undefined && there.get(`${bucket}/${relPath}`) !== size)
          queue.push({ kind: "put", bucket, relPath, file });
      }
    }
    await store.purgeTrash(Date.now() - KEEP_DELETED_MS);
    void drain();
  }

  const daily = setInterval(() => void store.purgeTrash(Date.now() - KEEP_DELETED_MS).catch(() => 0), 24 * 3_600_000);
  daily.unref();
  const started = catchUp().catch((error: Error) => {
    lastError = error.message;
    log.warn(`[replica] the stored files could not be compared with the replica: ${error.message}`);
  });

  return {
    started,
    progress: () => ({ pending: queue.length, lastError }),
    /** Waits (at most `ms`) for the queue to empty, then stops watching. */
    async stop(ms = 5_000): Promise<void> {
      const until = Date.now() + ms;
      while (queue.length && Date.now() < until && !lastError) await new Promise((r) => setTimeout(r, 50));
      stopped = true;
      unwatch();
      clearInterval(daily);
      if (retry) clearTimeout(retry);
    },
  };
}
