import type { Env } from "../env.server";
import { log } from "../log.server";
import { mirrorStorage } from "./files.server";
import type { S3Access } from "./litestream.server";
import { startReplication, stopReplication } from "./replicator.server";
import { fileStoreFor } from "./restore.server";

/** The BACKUP_S3_* endpoint, region and keys an S3 replica signs with (the start checked they are set). */
export function s3AccessOf(
  e: Pick<Env, "BACKUP_S3_ENDPOINT" | "BACKUP_S3_REGION" | "BACKUP_S3_ACCESS_KEY_ID" | "BACKUP_S3_SECRET_ACCESS_KEY">,
): S3Access | null {
  if (!e.BACKUP_S3_ENDPOINT || !e.BACKUP_S3_ACCESS_KEY_ID || !e.BACKUP_S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: e.BACKUP_S3_ENDPOINT,
    region: e.BACKUP_S3_REGION || "us-east-1",
    accessKeyId: e.BACKUP_S3_ACCESS_KEY_ID,
    secretAccessKey: e.BACKUP_S3_SECRET_ACCESS_KEY,
  };
}

let mirror: ReturnType<typeof mirrorStorage> | null = null;

/**
 * With REPLICA_URL set, the server's continuous replication (issue 45.1): Litestream for the
 * database, supervised (server/replica/replicator.server.ts), and the stored files copied as they
 * change (server/replica/files.server.ts). Started after the migrations, stopped at shutdown.
 */
export async function startReplica(e: Env): Promise<void> {
  if (!e.REPLICA) return;
  const s3 = e.REPLICA.kind === "s3" ? s3AccessOf(e) : null;
  mirror = mirrorStorage(e.DATA_DIR, fileStoreFor(e.REPLICA, s3), log);
  await startReplication({ dataDir: e.DATA_DIR, target: e.REPLICA, s3, log, files: mirror.progress });
  log.info(`[replica] replicating the database and stored files to ${e.REPLICA.display} (shipped every half second)`);
}

/** Ships what is pending (Litestream's last sync, the files' queue), then stops. */
export async function stopReplica(): Promise<void> {
  await Promise.all([mirror?.stop(), stopReplication()]);
  mirror = null;
}
