/**
 * Operator commands (DESIGN.md §3), run by the npm scripts through server/cli-main.js (runCli of
 * the one server module, build/index.js) and by the single binary (`./studio migrate`, ...):
 *   npm run db:migrate
 *   npm run db:seed
 *   npm run admin -- grant EMAIL [--super]
 *   npm run admin -- revoke EMAIL
 *   npm run admin -- login-link EMAIL
 *   npm run backup [-- FILE]    (a file or folder; default BACKUP_DIR, or DATA_DIR/backups)
 *   npm run restore -- FILE|s3:KEY|s3:latest   (refused while the server runs)
 *   npm run restore -- replica:latest|replica:TIME   (into an empty DATA_DIR, from REPLICA_URL)
 */
import { backupDirFromEnv, dataDirFromEnv, env, EnvError, replicaFromEnv } from "./env.server";
import { ReplicaRestoreError, restorePoint, restoreReplica } from "./replica/restore.server";
import { s3AccessOf } from "./replica/replica.server";
import { createDb, getDb, migrateToLatest, closeDb, type DB } from "./db/db.server";
import { recordBackupSuccess } from "./db/backup-schedule.server";
import { seedDemoCatalogue } from "./db/seed.server";
import { grantAdmin, normalizeEmail, revokeAdmin } from "./auth/users.server";
import { createSignInLink } from "./auth/email-signin.server";
import { MAGIC_LINK_TTL_MS, OPERATOR_CLIENT_KEY } from "./auth/magic-link.server";
import { TooManyRequests } from "./errors";
import path from "node:path";
import { BackupError, createBackup, restoreBackup } from "./db/backup.server";
import { upgradeSchema } from "./db/upgrade.server";
import { downloadRemote, listRemote, offsiteFrom, uploadBackup } from "./db/offsite.server";

export const npmUsage = `usage:
  npm run db:migrate
  npm run db:seed
  npm run admin -- grant EMAIL [--super]
  npm run admin -- revoke EMAIL
  npm run admin -- login-link EMAIL
  npm run backup [-- FILE]
  npm run restore -- FILE|s3:KEY|s3:latest|replica:latest|replica:TIME`;

/**
 * Runs one operator command (`migrate`, `seed [--force]`, `admin grant|revoke EMAIL [--super]`,
 * `admin login-link EMAIL`, `backup FILE`, `restore FILE`) and resolves with the process's exit code; `usage` is printed
 * for a command it does not know (exit code 2).
 */
export async function runCli(argv: string[], usage = npmUsage): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "restore" && rest[0]?.startsWith("replica:")) {
    try {
      return await replicaRestore(rest[0]);
    } catch (error) {
      if (!(error instanceof ReplicaRestoreError || error instanceof EnvError)) throw error;
      console.error(`restore refused: ${error.message}`);
      return 1;
    }
  }
  if (command === "backup" || command === "restore") {
    try {
      return await backupCommand(command, rest, usage);
    } catch (error) {
      // What is wrong, in one line (the folder, the lock, the checksum, the schema): no stack.
      if (!(error instanceof BackupError)) throw error;
      console.error(`${command} refused: ${error.message}`);
      return 1;
    }
  }
  const e = env();
  const db = getDb(e.DATA_DIR);
  try {
    switch (command) {
      case "migrate": {
        const { applied } = await upgradeSchema(db, e.DATA_DIR, backupDirFromEnv(), migrateToLatest);
        console.log(applied.length ? applied.map((name) => `applied ${name}`).join("\n") : "database is up to date");
        return 0;
      }
      case "seed": {
        await migrateToLatest(db);
        const { inserted } = await seedDemoCatalogue(db, e.DATA_DIR, { force: rest.includes("--force") });
        console.log(
          inserted
            ? `seeded ${inserted} sample templates`
            : "the sample templates were seeded before (seed --force adds the missing ones); nothing seeded",
        );
        return 0;
      }
      case "admin": {
        const [action, email, ...flags] = rest;
        if (
          !email ||
          !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ||
          !["grant", "revoke", "login-link"].includes(action)
        ) {
          console.error(usage);
          return 2;
        }
        await migrateToLatest(db);
        if (action === "login-link") return await printLoginLink(db, email);
        if (action === "grant") {
          const superAdmin = flags.includes("--super");
          await grantAdmin(db, email, { superAdmin });
          console.log(`${email} is now ${superAdmin ? "a super admin" : "an admin"}`);
        } else {
          const removed = await revokeAdmin(db, email);
          console.log(removed ? `${email} is no longer an admin` : `${email} was not an admin`);
        }
        return 0;
      }
      default:
        console.error(usage);
        return 2;
    }
  } catch (error) {
    // Data a newer version upgraded, an unusable backup folder: one line, no stack.
    if (!(error instanceof BackupError)) throw error;
    console.error(`${command} refused: ${error.message}`);
    return 1;
  } finally {
    await closeDb();
  }
}

/**
 * `admin login-link EMAIL`: a one-time sign-in link for an existing admin, printed instead of
 * mailed (the site's magic link: 10 minutes, single use, opening the console). It needs the
 * server's APP_URL and SESSION_SECRET, as the service has them, for the server to accept it.
 */
async function printLoginLink(db: DB, email: string): Promise<number> {
  const admin = await db
    .selectFrom("users")
    .innerJoin("admin_users", "admin_users.id", "users.id")
    .select("users.email")
    .where("users.email", "=", normalizeEmail(email))
    .executeTakeFirst();
  if (!admin) {
    console.error(`${email} is not an admin`);
    return 1;
  }
  try {
    const link = await createSignInLink(admin.email, { clientKey: OPERATOR_CLIENT_KEY, redirectTo: "/admin" });
    const minutes = MAGIC_LINK_TTL_MS / 60_000;
    console.log(`Sign-in link for ${admin.email} (valid ${minutes} minutes, single use): ${link}`);
    return 0;
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error;
    console.error(error.message);
    return 1;
  }
}

/**
 * Records a backup made here as the server records its own (the console's "Last", /healthz), in
 * the database it backed up; a database that cannot take it (one too old to have the flags)
 * leaves the backup as good, with a line that says so.
 */
async function recordLastBackup(dataDir: string, at: string, file: string): Promise<void> {
  const { db } = createDb(path.join(dataDir, "app.db"));
  try {
    await recordBackupSuccess(db, at, file);
  } catch (error) {
    console.error(`the backup is not recorded as the last one: ${(error as Error).message}`);
  } finally {
    await db.destroy();
  }
}

/** `backup [FILE]` and `restore FILE`. */
async function backupCommand(command: "backup" | "restore", rest: string[], usage: string): Promise<number> {
  if (command === "backup") {
    // A file or folder to write to, or BACKUP_DIR (default DATA_DIR/backups).
    const r = await createBackup(dataDirFromEnv(), { target: rest[0], defaultDir: backupDirFromEnv() });
    const mb = (r.manifest.parts["app.db"].bytes + r.manifest.parts["storage.tar.gz"].bytes) / 1048576;
    console.log(
      `backup written: ${r.file} (${mb.toFixed(1)} MB; version ${r.manifest.version}, schema ${r.manifest.schema.level})`,
    );
    const offsite = offsiteFrom(process.env as Parameters<typeof offsiteFrom>[0]);
    if (offsite) console.log(`uploaded to ${offsite.bucket}: ${await uploadBackup(offsite, r.file, r.manifest)}`);
    await recordLastBackup(dataDirFromEnv(), r.manifest.createdAt, r.file);
    return 0;
  }
  const file = rest[0];
  if (!file) {
    console.error(usage);
    return 2;
  }
  // `s3:KEY`: the off-site copy, fetched into BACKUP_DIR/from-s3 first.
  let local = file;
  if (file.startsWith("s3:")) {
    const offsite = offsiteFrom(process.env as Parameters<typeof offsiteFrom>[0]);
    if (!offsite) throw new BackupError("restoring s3:KEY needs BACKUP_S3_ENDPOINT, BACKUP_S3_BUCKET and its keys set");
    // `s3:latest`: the newest copy in the bucket (a new server knows no names yet).
    let name = file.slice(3);
    if (name === "latest") {
      name = (await listRemote(offsite))[0]?.name ?? "";
      if (!name) throw new BackupError(`there is no backup in ${offsite.bucket}/${offsite.prefix}`);
    }
    local = await downloadRemote(offsite, name, path.join(backupDirFromEnv(), "from-s3"));
    console.log(`downloaded ${file} to ${local}`);
  }
  const r = await restoreBackup(dataDirFromEnv(), local, { keepDir: path.join(backupDirFromEnv(), "before-restore") });
  const made = r.manifest
    ? ` (made ${r.manifest.createdAt} by version ${r.manifest.version}, schema ${r.manifest.schema.level})`
    : "";
  console.log(`restored ${path.resolve(local)}${made}: the database with its storage`);
  if (r.kept) console.log(`the data it replaced is kept in ${r.kept}`);
  return 0;
}

/** `restore replica:latest|replica:TIME`: database and files from REPLICA_URL into an empty DATA_DIR. */
async function replicaRestore(spec: string): Promise<number> {
  const replica = replicaFromEnv();
  if (!replica) throw new ReplicaRestoreError("restore replica:… reads the replica REPLICA_URL names: set it");
  const at = restorePoint(spec);
  await restoreReplica({
    dataDir: dataDirFromEnv(),
    target: replica.target,
    s3: replica.target.kind === "s3" ? s3AccessOf(replica) : null,
    at,
    say: (line) => console.log(line),
  });
  console.log(`restored ${spec} into ${dataDirFromEnv()}: start the server on it`);
  return 0;
}
