import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AwsClient } from "aws4fetch";
import type { Env } from "../env.server";
import { BackupError, type BackupManifest } from "./backup.server";

/**
 * Off the machine (issue 32.3): each backup is also uploaded to an S3-compatible bucket (AWS,
 * Backblaze B2, Cloudflare R2, MinIO, Hetzner…) under `BACKUP_S3_PREFIX`, the same number kept
 * there as locally. Requests are signed (AWS Signature V4) by aws4fetch over Node's own fetch; the
 * body streams from disk with its SHA-256 in `X-Amz-Content-Sha256`. An upload is tried three
 * times before it is reported.
 */

export type Offsite = { client: AwsClient; endpoint: string; bucket: string; prefix: string };
export type RemoteBackup = {
  key: string;
  name: string;
  bytes: number;
  at: string;
  /** From the object's metadata (x-amz-meta-studio-version and -schema), when asked for and set. */
  version?: string | null;
  schema?: number | null;
};

const ATTEMPTS = 3;

export function offsiteFrom(
  e: Pick<
    Env,
    | "BACKUP_S3_ENDPOINT"
    | "BACKUP_S3_BUCKET"
    | "BACKUP_S3_REGION"
    | "BACKUP_S3_ACCESS_KEY_ID"
    | "BACKUP_S3_SECRET_ACCESS_KEY"
    | "BACKUP_S3_PREFIX"
  >,
): Offsite | null {
  if (!e.BACKUP_S3_ENDPOINT || !e.BACKUP_S3_BUCKET || !e.BACKUP_S3_ACCESS_KEY_ID || !e.BACKUP_S3_SECRET_ACCESS_KEY)
    return null;
  return bucketAt(
    {
      endpoint: e.BACKUP_S3_ENDPOINT,
      region: e.BACKUP_S3_REGION,
      accessKeyId: e.BACKUP_S3_ACCESS_KEY_ID,
      secretAccessKey: e.BACKUP_S3_SECRET_ACCESS_KEY,
    },
    e.BACKUP_S3_BUCKET,
    e.BACKUP_S3_PREFIX ?? "",
  );
}

/** A bucket on an S3-compatible endpoint, its requests signed (AWS Signature V4) with the keys. */
export function bucketAt(
  access: { endpoint: string; region?: string; accessKeyId: string; secretAccessKey: string },
  bucket: string,
  prefix: string,
): Offsite {
  return {
    client: new AwsClient({
      accessKeyId: access.accessKeyId,
      secretAccessKey: access.secretAccessKey,
      service: "s3",
      region: access.region || "us-east-1",
    }),
    endpoint: access.endpoint.replace(/\/+$/, ""),
    bucket,
    prefix,
  };
}

export const objectUrl = (o: Offsite, key: string) =>
  `${o.endpoint}/${encodeURIComponent(o.bucket)}/${key.split("/").map(encodeURIComponent).join("/")}`;

export function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash("sha256");
    fs.createReadStream(file)
      .on("data", (c) => hash.update(c))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

export async function failed(res: Response, what: string): Promise<BackupError> {
  const text = await res.text().catch(() => "");
  const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
  return new BackupError(`${what}: the bucket answered ${res.status}${code ? ` ${code}` : ""}`);
}

/**
 * Uploads a backup file under the prefix, with its version and schema as object metadata (what
 * the console lists); tried three times, then reported (a BackupError).
 */
export async function uploadBackup(
  o: Offsite,
  file: string,
  manifest: Pick<BackupManifest, "version" | "schema">,
): Promise<string> {
  const key = `${o.prefix}${path.basename(file)}`;
  const sha = await sha256Of(file);
  let last: unknown;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await new Promise((r) => setTimeout(r, 500 * 2 ** (attempt - 1)));
    try {
      await putObjectFile(o, key, file, {
        "X-Amz-Content-Sha256": sha,
        "Content-Type": "application/x-tar",
        "X-Amz-Meta-Studio-Version": manifest.version,
        "X-Amz-Meta-Studio-Schema": String(manifest.schema.level),
      });
      return key;
    } catch (error) {
      last =
        error instanceof BackupError
          ? error
          : new BackupError(`uploading ${key} to ${o.bucket}: ${(error as Error).message}`);
    }
  }
  throw last;
}

/**
 * One PUT of `file` as `key`, streamed from disk (its SHA-256 in `X-Amz-Content-Sha256` unless
 * `headers` give it); a refusal is a BackupError with the bucket's code.
 */
export async function putObjectFile(o: Offsite, key: string, file: string, headers: Record<string, string> = {}) {
  const bytes = fs.statSync(file).size;
  const sha = headers["X-Amz-Content-Sha256"] ?? (await sha256Of(file));
  const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
  const res = await o.client.fetch(objectUrl(o, key), {
    method: "PUT",
    body,
    headers: { "Content-Length": String(bytes), ...headers, "X-Amz-Content-Sha256": sha },
    // Node's fetch streams a body only half-duplex.
    ...({ duplex: "half" } as object),
  });
  if (!res.ok) throw await failed(res, `uploading ${key} to ${o.bucket}`);
  await res.arrayBuffer();
}

/** Streams object `key` into `file` (through a partial file, renamed when whole). */
export async function getObjectToFile(o: Offsite, key: string, file: string, mode = 0o600): Promise<void> {
  const res = await o.client.fetch(objectUrl(o, key));
  if (res.status === 404) throw new BackupError(`there is no ${key} in ${o.bucket}`);
  if (!res.ok || !res.body) throw await failed(res, `downloading ${key}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  const out = fs.createWriteStream(partial, { mode });
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(res.body as WebReadableStream)
      .pipe(out)
      .on("finish", resolve)
      .on("error", reject);
  });
  fs.renameSync(partial, file);
}

/** Every object under `prefix` (ListObjectsV2, page after page): its key, size and time. */
export async function listObjects(o: Offsite, prefix: string): Promise<{ key: string; bytes: number; at: string }[]> {
  const out: { key: string; bytes: number; at: string }[] = [];
  let token: string | null = null;
  do {
    const q = new URLSearchParams({ "list-type": "2", prefix });
    if (token) q.set("continuation-token", token);
    const res = await o.client.fetch(`${o.endpoint}/${encodeURIComponent(o.bucket)}?${q}`);
    if (!res.ok) throw await failed(res, `listing ${o.bucket}`);
    const xml = await res.text();
    for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
      const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(m[1])?.[1] ?? "";
      const key = field("Key")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, "&");
      out.push({ key, bytes: Number(field("Size")), at: field("LastModified") });
    }
    token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
      ? (/<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1] ?? null)
      : null;
  } while (token);
  return out;
}

/** The backups in the bucket under the prefix, newest first. */
export async function listRemote(o: Offsite): Promise<RemoteBackup[]> {
  return (await listObjects(o, o.prefix))
    .filter((r) => r.key.endsWith(".studio-backup"))
    .map((r) => ({ ...r, name: r.key.slice(o.prefix.length) }))
    .sort((a, b) => b.name.localeCompare(a.name));
}

/** Each listed backup with the version and schema its upload recorded (one HEAD each). */
export async function withVersions(o: Offsite, backups: RemoteBackup[]): Promise<RemoteBackup[]> {
  return Promise.all(
    backups.map(async (b) => {
      const res = await o.client.fetch(objectUrl(o, b.key), { method: "HEAD" });
      if (!res.ok) return { ...b, version: null, schema: null };
      const schema = Number(res.headers.get("x-amz-meta-studio-schema"));
      return { ...b, version: res.headers.get("x-amz-meta-studio-version"), schema: schema || null };
    }),
  );
}

/** The scheduled backups in the bucket beyond the newest `keep`, deleted; answers their keys. */
export async function rotateRemote(o: Offsite, keep: number): Promise<string[]> {
  const scheduled = (await listRemote(o)).filter((r) =>
    /^studio-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.studio-backup$/.test(r.name),
  );
  const old = scheduled.slice(keep);
  for (const r of old) {
    const res = await o.client.fetch(objectUrl(o, r.key), { method: "DELETE" });
    if (!res.ok && res.status !== 404) throw await failed(res, `deleting ${r.key}`);
  }
  return old.map((r) => r.key);
}

/** Downloads `key` (as given, or under the prefix) into `dir`; answers the file. */
export async function downloadRemote(o: Offsite, key: string, dir: string): Promise<string> {
  const full = key.startsWith(o.prefix) ? key : `${o.prefix}${key}`;
  const file = path.join(dir, path.basename(full));
  try {
    await getObjectToFile(o, full, file);
  } catch (error) {
    if (error instanceof BackupError && error.message.startsWith("there is no "))
      throw new BackupError(`there is no backup ${full} in ${o.bucket}`);
    throw error;
  }
  return file;
}
