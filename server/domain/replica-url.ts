/**
 * REPLICA_URL (issue 45.1): where the database is replicated continuously and the stored files
 * copied as they are written. `s3://bucket/path` (an S3-compatible bucket, with the BACKUP_S3_*
 * endpoint, region and keys) or `file:///path` (a folder, for a second disk). Pure: the start's
 * checks (server/env.server.ts) and the replicator read it the same way.
 */
export type ReplicaTarget =
  { kind: "file"; dir: string; display: string } | { kind: "s3"; bucket: string; prefix: string; display: string };

/** An S3 bucket name as AWS allows it (3-63 lowercase letters, digits, dots and dashes). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The target, or the one line that says what is wrong with the value (never echoing a key). */
export function parseReplicaUrl(value: string): ReplicaTarget | { problem: string } {
  const expected = "REPLICA_URL must be s3://bucket/path or file:///path";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${expected}, got '${value}'` };
  }
  if (url.username || url.password)
    return {
      problem: "REPLICA_URL must not hold keys: they go in BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY",
    };
  if (url.search || url.hash) return { problem: `${expected}, without a query or fragment, got '${value}'` };
  if (url.protocol === "file:") {
    if (url.host) return { problem: `${expected} (a local folder: file:///srv/replica), got '${value}'` };
    const dir = decodeURIComponent(url.pathname).replace(/\/+$/, "");
    if (!dir || dir.split("/").some((s) => s === "." || s === "..") || dir.includes("\0"))
      return { problem: `REPLICA_URL must name a folder other than /, got '${value}'` };
    return { kind: "file", dir, display: `file://${dir}` };
  }
  if (url.protocol === "s3:") {
    const bucket = url.hostname;
    if (!bucket) return { problem: `REPLICA_URL must name a bucket (s3://bucket/path), got '${value}'` };
    if (!BUCKET.test(bucket) || url.port)
      return { problem: `REPLICA_URL's bucket must be an S3 bucket name (a-z, 0-9, dots and dashes), got '${bucket}'` };
    const prefix = decodeURIComponent(url.pathname).split("/").filter(Boolean).join("/");
    if (prefix.split("/").some((s) => s === "." || s === ".."))
      return { problem: `REPLICA_URL's path must not hold . or .. segments, got '${value}'` };
    return { kind: "s3", bucket, prefix, display: `s3://${bucket}${prefix ? `/${prefix}` : ""}` };
  }
  return { problem: `${expected}, got a ${url.protocol.replace(/:$/, "")}: URL` };
}
