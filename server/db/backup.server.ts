import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { version as productVersion } from "../../package.json";
import { migrations } from "../../migrations/index";
import { sqliteNativeBinding } from "./db.server";
import { dataFolderHolder, holdDataFolder, releaseDataFolder, runningMessage } from "./lock.server";
import { BackupError, ensureFolder, integrityOk, schemaOf, sha256 } from "./backup-files.server";
import { extractTar, listTar, readFirstTarFile, TarRefusal, type TarEntry } from "./tar.server";

/**
 * Backups that save the studio (issue 32): one file per backup, a tar holding
 *   manifest.json    product version, schema level, time, reason, each part's size and SHA-256
 *   app.db           a consistent snapshot of the database (SQLite's online backup API)
 *   storage.tar.gz   the storage folder (uploads, template files, pictures)
 * written under a temporary name, checked (integrity_check on the snapshot, every checksum read
 * back from the written file) and renamed into place, readable by its owner only (0600).
 * A restore checks the same before it replaces anything, refuses while a server holds the data
 * folder and a backup made by a newer schema, and keeps what it replaces as a backup first.
 * Backups are written by the system `tar`; they are read by our own reader (tar.server.ts), which
 * brings back only regular files and folders: a tampered archive's links, devices or paths out of
 * the folder are refused, naming the entry, before anything changes.
 */

export { BackupError, schemaOf };

export const BACKUP_FORMAT = 1;
export const BACKUP_SUFFIX = ".studio-backup";
const PARTS = ["app.db", "storage.tar.gz"] as const;
type Part = (typeof PARTS)[number];

export type BackupReason = "manual" | "scheduled" | "pre-upgrade" | "before-restore";

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  product: "studio";
  version: string;
  /** How many migrations the database had, and the last one's name. */
  schema: { level: number; last: string | null };
  createdAt: string;
  reason: BackupReason;
  parts: Record<Part, { bytes: number; sha256: string }>;
};

/** What this build knows: its migrations, in order. */
export const KNOWN_MIGRATIONS = Object.keys(migrations);
export const PRODUCT_VERSION: string = productVersion;

/** The sentence for an archive the reader refuses: the entry it holds and the rule, or why it cannot be read. */
function refusal(file: string, error: TarRefusal, what: "backup" | "storage"): BackupError {
  if (error.entry === null)
    return new BackupError(
      what === "backup"
        ? `${file} is not a studio backup (it could not be unpacked: ${error.problem})`
        : `${file} is damaged: its storage archive cannot be read (${error.problem})`,
    );
  const rule =
    error.about === "type"
      ? "only regular files and folders are restored"
      : what === "backup"
        ? "a backup holds only manifest.json, app.db and storage.tar.gz"
        : "only files and folders inside storage/ are restored";
  return new BackupError(`${file} holds ${error.message}; ${rule}`);
}

/** The storage archive's entries, every one checked (see tar.server.ts), or the refusal naming one. */
async function checkedStorage(file: string, tarball: string): Promise<TarEntry[]> {
  try {
    return await listTar(tarball, { gzip: true, under: "storage" });
  } catch (error) {
    if (error instanceof TarRefusal) throw refusal(file, error, "storage");
    throw error;
  }
}

/** A data folder without a database: nothing to back up yet. */
export class NothingToBackUp extends BackupError {}

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-");
}

/**
 * Moves `partial` to `file`, or to `file` with `-2`, `-3`… before its suffix when a file of that
 * name is there already (a hard link never replaces); answers where it went.
 */
function placeBeside(partial: string, file: string): string {
  const base = file.slice(0, -BACKUP_SUFFIX.length);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? file : `${base}-${n}${BACKUP_SUFFIX}`;
    try {
      fs.linkSync(partial, candidate);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && n < 1000) continue;
      throw error;
    }
    fs.rmSync(partial, { force: true });
    return candidate;
  }
}

/** Where `studio backup` writes when given no file: BACKUP_DIR, or DATA_DIR/backups. */
export function defaultBackupDir(dataDir: string, backupDir?: string): string {
  return path.resolve(backupDir || path.join(dataDir, "backups"));
}

/**
 * The file name of a backup made at `now` for `reason`: `studio-<time>.studio-backup` for a
 * scheduled one (the only ones the rotation removes), `studio-<time>-<reason>.studio-backup` for
 * every other (`-manual`: "Back up now" and `studio backup`; `-pre-upgrade`, `-before-restore`).
 */
export function backupFileName(now: Date, reason: BackupReason): string {
  return `studio-${stamp(now)}${reason === "scheduled" ? "" : `-${reason}`}${BACKUP_SUFFIX}`;
}

/** A backup's manifest, read from the head of the file (where it is written); null when none reads there. */
export function readManifest(file: string): BackupManifest | null {
  const first = readFirstTarFile(file, 64 * 1024);
  if (first?.name !== "manifest.json") return null;
  try {
    return JSON.parse(first.data.toString("utf8")) as BackupManifest;
  } catch {
    return null;
  }
}

/**
 * Writes one backup of `dataDir` (safe while the server runs): to `target` when it names a file,
 * into it when it names a folder, else into `defaultDir` as `backupFileName(now, reason)`.
 */
export async function createBackup(
  dataDir: string,
  opts: { target?: string; defaultDir: string; reason?: BackupReason; now?: Date },
): Promise<{ file: string; manifest: BackupManifest }> {
  const now = opts.now ?? new Date();
  const reason = opts.reason ?? "manual";
  const name = backupFileName(now, reason);
  let file: string;
  let named = false;
  if (opts.target) {
    const t = path.resolve(opts.target);
    named = !(fs.existsSync(t) && fs.statSync(t).isDirectory());
    file = named ? t : path.join(t, name);
  } else file = path.join(opts.defaultDir, name);
  const dir = path.dirname(file);
  ensureFolder(dir, "the backup");
  const dbFile = path.join(dataDir, "app.db");
  if (!fs.existsSync(dbFile)) throw new NothingToBackUp(`there is no database to back up in ${dataDir}`);

  const work = fs.mkdtempSync(path.join(dir, ".backup-tmp-"));
  const partial = path.join(dir, `.${path.basename(file)}.partial-${process.pid}`);
  try {
    const source = new SQLite(dbFile, { fileMustExist: true, nativeBinding: sqliteNativeBinding() });
    try {
      source.pragma("busy_timeout = 5000");
      await source.backup(path.join(work, "app.db"));
    } finally {
      source.close();
    }
    const ok = integrityOk(path.join(work, "app.db"));
    if (ok !== "ok") throw new BackupError(`the database snapshot failed its integrity check: ${ok}`);
    const storage = path.join(dataDir, "storage");
    if (fs.existsSync(storage))
      execFileSync("tar", ["-czf", path.join(work, "storage.tar.gz"), "-C", dataDir, "storage"]);
    else execFileSync("tar", ["-czf", path.join(work, "storage.tar.gz"), "-T", "/dev/null"]);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      product: "studio",
      version: PRODUCT_VERSION,
      schema: schemaOf(path.join(work, "app.db")),
      createdAt: now.toISOString(),
      reason,
      parts: Object.fromEntries(
        PARTS.map((p) => [p, { bytes: fs.statSync(path.join(work, p)).size, sha256: sha256(path.join(work, p)) }]),
      ) as BackupManifest["parts"],
    };
    fs.writeFileSync(path.join(work, "manifest.json"), JSON.stringify(manifest, null, 2));
    execFileSync("tar", ["-cf", partial, "-C", work, "manifest.json", ...PARTS]);
    fs.chmodSync(partial, 0o600);
    // Read back what was written: the same parts with the same checksums.
    await verifyBackup(partial);
    // A name this code chose never replaces a backup already there (two within one second):
    // the later one is `…-2.studio-backup`. A file the operator named is written as named.
    if (named) fs.renameSync(partial, file);
    else file = placeBeside(partial, file);
    return { file, manifest };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOSPC") throw new BackupError(`cannot write the backup to ${dir}: the disk is full (ENOSPC)`);
    throw error;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Unpacks a backup into `into` (or a temporary folder, removed after) and checks it: a manifest of
 * this format, every part present with its size and SHA-256, and a database that passes
 * integrity_check. Answers the manifest; throws a BackupError saying what is wrong.
 */
export async function verifyBackup(file: string, into?: string): Promise<BackupManifest> {
  const own = !into;
  const dir = into ?? fs.mkdtempSync(path.join(path.dirname(file), ".verify-tmp-"));
  try {
    // Only regular files at the top level are read; of them, only the manifest and the parts are written.
    const wanted = new Set<string>(["manifest.json", ...PARTS]);
    try {
      const entries = await listTar(file, { flat: true });
      await extractTar(file, dir, entries, { flat: true, keep: (e) => wanted.has(e.name) && e.type === "file" });
    } catch (error) {
      if (error instanceof TarRefusal) throw refusal(file, error, "backup");
      throw error;
    }
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
    } catch {
      throw new BackupError(`${file} has no readable manifest`);
    }
    if (manifest.product !== "studio" || manifest.format !== BACKUP_FORMAT)
      throw new BackupError(`${file} is not a studio backup of format ${BACKUP_FORMAT}`);
    for (const p of PARTS) {
      const expected = manifest.parts?.[p];
      const at = path.join(dir, p);
      if (!expected || !fs.existsSync(at)) throw new BackupError(`${file} is missing its ${p}`);
      if (fs.statSync(at).size !== expected.bytes || sha256(at) !== expected.sha256)
        throw new BackupError(`${file} is damaged: its ${p} does not match its checksum`);
    }
    const ok = integrityOk(path.join(dir, "app.db"));
    if (ok !== "ok") throw new BackupError(`${file} holds a database that fails its integrity check: ${ok}`);
    return manifest;
  } finally {
    if (own) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A backup of the schema this build knows (or an older one); else the sentence that names both. */
function refuseNewerSchema(manifest: { schema: { level: number; last: string | null } }, file: string) {
  const { last, level } = manifest.schema;
  if (last && !KNOWN_MIGRATIONS.includes(last))
    throw new BackupError(
      `${file} was made by a newer version (schema ${level}, ${last}); this version ${PRODUCT_VERSION} knows schema ${KNOWN_MIGRATIONS.length} (${KNOWN_MIGRATIONS.at(-1)}). Restore it with that version or a later one.`,
    );
}

function isLegacyBackup(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(16);
    fs.readSync(fd, head, 0, 16, 0);
    return head.toString("latin1") === "SQLite format 3\0";
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Restores a backup into `dataDir`, database and files together. Refused while a server holds the
 * data folder ("the studio is running (pid N); stop it first"), for a damaged backup and for one
 * made by a newer schema, each before anything changes. What it replaces is kept as a backup
 * first (in `keepDir`). Backups of the earlier two-file form (a database file and
 * FILE.storage.tar.gz beside it) are restored too.
 */
export async function restoreBackup(
  dataDir: string,
  file: string,
  opts: { keepDir: string; now?: Date },
): Promise<{
  manifest: Pick<BackupManifest, "createdAt" | "version" | "schema"> | null;
  kept: string | null;
  storage: boolean;
}> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new BackupError(`there is no backup at ${source}`);
  const running = dataFolderHolder(dataDir);
  if (running) throw new BackupError(running);
  ensureFolder(dataDir, "the restored data");
  holdDataFolder(dataDir);
  const work = fs.mkdtempSync(path.join(dataDir, ".restore-tmp-"));
  try {
    let manifest: Pick<BackupManifest, "createdAt" | "version" | "schema"> | null = null;
    let storageTarball: string | null = null;
    let storageEntries: TarEntry[] = [];
    if (isLegacyBackup(source)) {
      const ok = integrityOk(source);
      if (ok !== "ok") throw new BackupError(`${source} failed its integrity check: ${ok}`);
      refuseNewerSchema({ schema: schemaOf(source) }, source);
      fs.copyFileSync(source, path.join(work, "app.db"));
      if (fs.existsSync(`${source}.storage.tar.gz`)) storageTarball = `${source}.storage.tar.gz`;
    } else {
      const m = await verifyBackup(source, work);
      refuseNewerSchema(m, source);
      manifest = m;
      storageTarball = path.join(work, "storage.tar.gz");
    }
    // Every entry of the files is checked before anything changes.
    if (storageTarball) storageEntries = await checkedStorage(source, storageTarball);
    // What is there now is kept before anything is replaced.
    let kept: string | null = null;
    if (fs.existsSync(path.join(dataDir, "app.db"))) {
      kept = (await createBackup(dataDir, { defaultDir: opts.keepDir, reason: "before-restore", now: opts.now })).file;
    }
    const newStorage = path.join(work, "storage-new");
    fs.mkdirSync(newStorage);
    if (storageTarball)
      try {
        await extractTar(storageTarball, newStorage, storageEntries, { gzip: true, under: "storage" });
      } catch (error) {
        if (error instanceof TarRefusal) throw refusal(source, error, "storage");
        throw error;
      }
    const dbFile = path.join(dataDir, "app.db");
    for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
    fs.renameSync(path.join(work, "app.db"), dbFile);
    // The files are the backup's: what was there goes (it is in the kept backup).
    const storage = path.join(dataDir, "storage");
    const restoredStorage = path.join(newStorage, "storage");
    if (storageTarball) {
      if (fs.existsSync(storage)) fs.renameSync(storage, path.join(work, "storage-old"));
      if (fs.existsSync(restoredStorage)) fs.renameSync(restoredStorage, storage);
      else fs.mkdirSync(storage, { recursive: true });
    }
    return { manifest, kept, storage: Boolean(storageTarball) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    releaseDataFolder();
  }
}

export { runningMessage };
