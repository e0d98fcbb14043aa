import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { db } from "../db.server";
import { env } from "../env.server";
import { checkDownloadLink } from "../shop/downloads.server";
import {
  contentTypeFor,
  createStorage,
  isBucket,
  PUBLIC_BUCKETS,
  StoragePathError,
  verifySignature,
} from "./storage.server";

function plain(status: number, text: string) {
  return new Response(text, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** Download name of a booking file: the stored name without its leading number prefix. */
export function downloadName(relPath: string): string {
  return path.basename(relPath).replace(/^\d+-/, "");
}

/**
 * Serves a stored file. Public buckets are served as is; every other file needs a valid,
 * unexpired signature (403 otherwise, never 500). Template archives are signed for one purchase
 * and served only while that purchase still grants access (a refund or dispute ends the links
 * already handed out). Paths that could leave the bucket are 404.
 */
export async function serveStoredFile(request: Request, bucket: string, relPath: string): Promise<Response> {
  if (!isBucket(bucket)) return plain(404, "Not found");
  const e = env();
  const storage = createStorage(e.DATA_DIR);
  let full: string;
  try {
    full = storage.resolveSafe(bucket, relPath);
  } catch (error) {
    if (error instanceof StoragePathError) return plain(404, "Not found");
    throw error;
  }
  const url = new URL(request.url);
  const isPublic = PUBLIC_BUCKETS.includes(bucket);
  if (bucket === "template-files") {
    const verdict = await checkDownloadLink(db(), e.SESSION_SECRET, relPath, url.searchParams);
    if (!verdict.ok) return plain(verdict.status, verdict.message);
  } else if (!isPublic) {
    const verdict = verifySignature(
      e.SESSION_SECRET,
      bucket,
      relPath,
      url.searchParams.get("exp"),
      url.searchParams.get("sig"),
    );
    if (verdict !== "ok") return plain(403, verdict === "expired" ? "This link has expired" : "Invalid link");
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
    if (!stat.isFile()) return plain(404, "Not found");
  } catch {
    return plain(404, "Not found");
  }
  const type = contentTypeFor(full);
  const headers = new Headers({
    "Content-Type": type,
    "Content-Length": String(stat.size),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": isPublic ? "public, max-age=3600" : "private, no-store",
  });
  if (type === "image/svg+xml")
    headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  const inline = url.searchParams.get("disposition") === "inline" && type.startsWith("image/");
  if (!isPublic && !inline) {
    const name = bucket === "booking-files" ? downloadName(relPath) : path.basename(relPath);
    headers.set(
      "Content-Disposition",
      `attachment; filename="${name.replace(/"/g, "")}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
  }
  if (request.method === "HEAD") return new Response(null, { headers });
  const stream = Readable.toWeb(fs.createReadStream(full)) as ReadableStream<Uint8Array>;
  return new Response(stream, { headers });
}
