/**
 * An S3-compatible server (s3rver) started by a test, with one bucket: the off-site store of the
 * backup tests. `env(prefix)` gives the server's BACKUP_S3_* settings for it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export async function startS3(bucket = "studio-backups") {
  const s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-")),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await s3.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: (prefix = ""): Record<string, string> => ({
      BACKUP_S3_ENDPOINT: endpoint,
      BACKUP_S3_BUCKET: bucket,
      BACKUP_S3_REGION: "us-east-1",
      BACKUP_S3_ACCESS_KEY_ID: "S3RVER",
      BACKUP_S3_SECRET_ACCESS_KEY: "S3RVER",
      ...(prefix ? { BACKUP_S3_PREFIX: prefix } : {}),
    }),
    close: () => s3.close(),
  };
}
