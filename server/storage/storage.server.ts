import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * `studio-images`: the pictures of the studio's own pages (case studies), edited in Settings.
 * `documents`: signed proposals (issue 44), served only through their own routes.
 */
export const BUCKETS = ["booking-files", "template-images", "template-files", "studio-images", "documents"] as const;
export type Bucket = (typeof BUCKETS)[number];
export const PUBLIC_BUCKETS: readonly Bucket[] = ["template-images", "studio-images"];
export const SIGNED_LINK_TTL_SECONDS = 3600;

export function isBucket(value: string): value is Bucket {
  return (BUCKETS as readonly string[]).includes(value);
}

export class StoragePathError extends Error {}
export class StorageConflictError extends Error {}

/** The disk (or the database on it) is full: nothing was written. Answered 507 with a human message. */
export class StorageFullError extends Error {
  constructor(cause?: unknown) {
    super("The server's storage is full", { cause });
  }
}

/** What a full disk looks like from Node (ENOSPC, EDQUOT) and from SQLite (SQLITE_FULL), also when wrapped. */
export function isDiskFull(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (e instanceof StorageFullError) return true;
    const code = (e as { code?: unknown }).code;
    if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL") return true;
  }
  return false;
}

/** A user-supplied file name reduced to [a-z0-9._-], keeping its extension. */
export function safeFileName(name: string): string {
  const base = path.basename(String(name).replace(/\\/g, "/"));
  const rawExt = path
    .extname(base)
    .toLowerCase()
    .replace(/[^a-z0-9.]/g, "")
    .slice(0, 12);
  const ext = /^\.[a-z0-9]+$/.test(rawExt) ? rawExt : "";
  const stem = base
    .slice(0, base.length - path.extname(base).length)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 100 - ext.length);
  return `${stem || "file"}${ext}`;
}

export function contentTypeFor(name: string): string {
  const ext = path.extname(name).toLowerCase();
  const types: Record<string, string> = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".svg": "image/svg+xml",
    ".pdf": "application/pdf",
    ".zip": "application/zip",
    ".rar": "application/vnd.rar",
  };
  return types[ext] ?? "application/octet-stream";
}

/** Temp files of in-flight writes: `.<name>.<hex>.tmp` (stored names never start with a dot). */
function isTempName(name: string): boolean {
  return name.startsWith(".") && name.endsWith(".tmp");
}

/** A file stored or removed, for whoever copies the storage elsewhere as it changes (issue 45.1). */
export type StorageChange =
  { kind: "put"; bucket: Bucket; relPath: string; file: string } | { kind: "remove"; bucket: Bucket; relPath: string };

const watchers = new Set<(change: StorageChange) => void>();

/** Calls `watcher` after every file any storage of this process stores or removes; returns the unwatch. */
export function watchStorage(watcher: (change: StorageChange) => void): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

function changed(change: StorageChange): void {
  for (const watcher of watchers) {
    try {
      watcher(change);
    } catch {
      // A watcher's trouble is its own: the file is stored all the same.
    }
  }
}

export function createStorage(dataDir: string) {
  const root = path.resolve(dataDir, "storage");

  /** Resolves a path inside a bucket; anything that could leave the bucket is refused. */
  function resolveSafe(bucket: string, relPath: string): string {
    if (!isBucket(bucket)) throw new StoragePathError("unknown bucket");
    if (typeof relPath !== "string" || !relPath || relPath.length > 500) throw new StoragePathError("bad path");
    if (relPath.includes("\0") || relPath.includes("\\") || path.isAbsolute(relPath))
      throw new StoragePathError("bad path");
    const segments = relPath.split("/");
    if (segments.some((s) => s === "" || s === "." || s === "..")) throw new StoragePathError("bad path");
    const bucketDir = path.join(root, bucket);
    const full = path.resolve(bucketDir, relPath);
    if (!full.startsWith(bucketDir + path.sep)) throw new StoragePathError("bad path");
    return full;
  }

  /**
   * The stored file at a safe path as it really is on disk: its real path (every link on the way
   * resolved) must stay inside the bucket's own real folder and be a regular file. A symbolic link
   * planted under storage/ that leads anywhere else (the database, another bucket) is no file here.
   */
  function realFile(bucket: string, relPath: string): { file: string; stat: fs.Stats } | null {
    const full = resolveSafe(bucket, relPath);
    try {
      const bucketReal = fs.realpathSync.native(path.join(root, bucket));
      const file = fs.realpathSync.native(full);
      if (!file.startsWith(bucketReal + path.sep)) return null;
      // The real path has no links left: lstat sees the file itself.
      const stat = fs.lstatSync(file);
      return stat.isFile() ? { file, stat } : null;
    } catch {
      return null;
    }
  }

  /**
   * Throws unless the folder a write goes to (made when missing) really is inside the bucket: a
   * linked folder planted under storage/ never takes a write elsewhere.
   */
  function writableFolder(bucket: string, full: string): void {
    const bucketDir = path.join(root, bucket);
    fs.mkdirSync(bucketDir, { recursive: true });
    const dir = path.dirname(full);
    // A file at the bucket's top goes where the bucket is, whatever its folder resolves to.
    if (dir === bucketDir) return;
    const bucketReal = fs.realpathSync.native(bucketDir);
    const inside = (dir: string) => {
      const real = fs.realpathSync.native(dir);
      if (real !== bucketReal && !real.startsWith(bucketReal + path.sep)) throw new StoragePathError("bad path");
    };
    // The part that exists already is checked before any folder is made under it, and all of it after.
    let existing = dir;
    while (existing !== bucketDir && !fs.existsSync(existing)) existing = path.dirname(existing);
    inside(existing);
    fs.mkdirSync(dir, { recursive: true });
    inside(dir);
  }

  /** Like `resolveSafe`, but `null` instead of throwing (for bulk operations on stored lists). */
  function tryResolve(bucket: string, relPath: string): string | null {
    try {
      return resolveSafe(bucket, relPath);
    } catch (error) {
      if (error instanceof StoragePathError) return null;
      throw error;
    }
  }

  function stat(bucket: Bucket, relPath: string): fs.Stats | null {
    return realFile(bucket, relPath)?.stat ?? null;
  }

  function removeFile(full: string): boolean {
    try {
      fs.unlinkSync(full);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "EISDIR" || code === "EPERM") return false;
      throw error;
    }
  }

  return {
    root,
    resolveSafe,
    realFile,
    /** Where uploads wait while they stream in: inside the storage folder, so a move is a link. */
    uploadTmpDir: path.join(root, ".uploads"),
    /**
     * Moves a finished temporary file (from `uploadTmpDir`) into the bucket; an existing file is
     * never replaced (`StorageConflictError`). The temporary file is gone afterwards either way.
     */
    putFile(bucket: Bucket, relPath: string, tmpFile: string): string {
      const full = resolveSafe(bucket, relPath);
      try {
        writableFolder(bucket, full);
        fs.linkSync(tmpFile, full);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST")
          throw new StorageConflictError(`${relPath} already exists`);
        if (isDiskFull(error)) throw new StorageFullError(error);
        throw error;
      } finally {
        fs.rmSync(tmpFile, { force: true });
      }
      changed({ kind: "put", bucket, relPath, file: full });
      return relPath;
    },
    /**
     * Writes atomically (temp file in the same folder, then rename or hard link).
     * Without `overwrite`, an existing file is never replaced: `StorageConflictError`.
     */
    put(bucket: Bucket, relPath: string, data: Buffer | Uint8Array, opts: { overwrite?: boolean } = {}): string {
      const full = resolveSafe(bucket, relPath);
      writableFolder(bucket, full);
      const tmp = path.join(path.dirname(full), `.${path.basename(full)}.${crypto.randomBytes(6).toString("hex")}.tmp`);
      let renamed = false;
      try {
        fs.writeFileSync(tmp, data, { flag: "wx" });
        if (opts.overwrite) {
          fs.renameSync(tmp, full);
          renamed = true;
        } else {
          try {
            fs.linkSync(tmp, full);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "EEXIST")
              throw new StorageConflictError(`${relPath} already exists`);
            throw error;
          }
        }
      } catch (error) {
        if (isDiskFull(error)) throw new StorageFullError(error);
        throw error;
      } finally {
        // Renamed, it is gone already; linked or failed, it is removed.
        if (!renamed) fs.rmSync(tmp, { force: true });
      }
      changed({ kind: "put", bucket, relPath, file: full });
      return relPath;
    },
    /** The file's bytes, or null when it is not a stored file (`realFile`). Unsafe paths throw `StoragePathError`. */
    read(bucket: Bucket, relPath: string): Buffer | null {
      const real = realFile(bucket, relPath);
      if (!real) return null;
      try {
        return fs.readFileSync(real.file);
      } catch {
        return null;
      }
    },
    stat,
    exists(bucket: Bucket, relPath: string): boolean {
      return stat(bucket, relPath) !== null;
    },
    /** Deletes one file; a missing file is not an error. Unsafe paths throw `StoragePathError`. */
    remove(bucket: Bucket, relPath: string): void {
      if (removeFile(resolveSafe(bucket, relPath))) changed({ kind: "remove", bucket, relPath });
    },
    /**
     * Deletes many files (e.g. a booking's uploads). Missing files and paths that would leave
     * the bucket are skipped so one bad entry never keeps the others. Returns how many went.
     */
    removeMany(bucket: Bucket, relPaths: readonly string[]): number {
      let removed = 0;
      for (const p of relPaths) {
        const full = tryResolve(bucket, p);
        if (full && removeFile(full)) {
          removed++;
          changed({ kind: "remove", bucket, relPath: p });
        }
      }
      return removed;
    },
    /**
     * Files of a bucket whose path starts with `prefix` (e.g. `bookings/<id>/`), as sorted
     * bucket-relative paths with `/` separators. Temp files of unfinished writes are hidden.
     */
    list(bucket: Bucket, prefix = ""): string[] {
      if (!isBucket(bucket)) throw new StoragePathError("unknown bucket");
      if (prefix.includes("\0") || prefix.includes("\\") || prefix.startsWith("/"))
        throw new StoragePathError("bad prefix");
      const dirPart = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      const bucketDir = path.join(root, bucket);
      const start = dirPart ? resolveSafe(bucket, dirPart) : bucketDir;
      const out: string[] = [];
      const walk = (dir: string, rel: string): void => {
        let entries: fs.Dirent[];
        try {
          entries = fs.readdirSync(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          const childRel = rel ? `${rel}/${entry.name}` : entry.name;
          if (entry.isDirectory()) walk(path.join(dir, entry.name), childRel);
          else if (entry.isFile() && !isTempName(entry.name) && childRel.startsWith(prefix)) out.push(childRel);
        }
      };
      walk(start, dirPart);
      return out.sort();
    },
  };
}

export type Storage = ReturnType<typeof createStorage>;

function hmac(secret: string, bucket: string, relPath: string, exp: number): string {
  return crypto.createHmac("sha256", secret).update(`${bucket}\n${relPath}\n${exp}`).digest("hex");
}

export function encodePath(relPath: string): string {
  return relPath.split("/").map(encodeURIComponent).join("/");
}

/** `/files/<bucket>/<path>` for the public bucket. */
export function publicUrl(bucket: Bucket, relPath: string): string {
  return `/files/${bucket}/${encodePath(relPath)}`;
}

/** A link valid for `ttlSeconds` (default 3600), signed with HMAC-SHA256. */
export function signedUrl(
  secret: string,
  bucket: Bucket,
  relPath: string,
  ttlSeconds = SIGNED_LINK_TTL_SECONDS,
  now = Date.now(),
): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  return `/files/${bucket}/${encodePath(relPath)}?exp=${exp}&sig=${hmac(secret, bucket, relPath, exp)}`;
}

/** Checks a signed link in constant time; expiry is compared in UTC seconds. Never throws. */
export function verifySignature(
  secret: string,
  bucket: string,
  relPath: string,
  exp: string | null,
  sig: string | null,
  now = Date.now(),
): "ok" | "expired" | "invalid" {
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return "invalid";
  const expected = Buffer.from(hmac(secret, bucket, relPath, Number(exp)), "hex");
  const given = Buffer.from(sig, "hex");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return "invalid";
  if (Number(exp) * 1000 < now) return "expired";
  return "ok";
}
