import path from "node:path";
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
} from "../storage/storage.server";

/** Download name of a booking file: the stored name without its leading number prefix. */
export function downloadName(relPath: string): string {
  return path.basename(relPath).replace(/^\d+-/, "");
}

/** A stored file that may be sent, with the headers it goes out with, or why not. */
export type StoredFileDecision =
  { ok: true; file: string; headers: Record<string, string> } | { ok: false; status: 403 | 404; message: string };

/**
 * Decides a request for a stored file. Public buckets are served as is; every other file needs a
 * valid, unexpired signature (403 otherwise, never 500). Template archives are signed for one
 * purchase and served only while that purchase still grants access (a refund, dispute or the
 * studio's revoke ends the links already handed out). Paths that could leave the bucket are 404,
 * and so is anything that is not a regular file really inside it (a symbolic link out of it).
 * The HTTP layer sends the file (server/http/stored-files.ts: Range requests, ETag, HEAD).
 */
export async function decideStoredFile(
  bucket: string,
  relPath: string,
  params: URLSearchParams,
): Promise<StoredFileDecision> {
  const notFound = { ok: false, status: 404, message: "Not found" } as const;
  if (!isBucket(bucket)) return notFound;
  const e = env();
  const storage = createStorage(e.DATA_DIR);
  let full: string;
  try {
    full = storage.resolveSafe(bucket, relPath);
  } catch (error) {
    if (error instanceof StoragePathError) return notFound;
    throw error;
  }
  const isPublic = PUBLIC_BUCKETS.includes(bucket);
  if (bucket === "template-files") {
    const verdict = await checkDownloadLink(db(), e.SESSION_SECRET, relPath, params);
    if (!verdict.ok) return { ok: false, status: 403, message: verdict.message };
  } else if (!isPublic) {
    const verdict = verifySignature(e.SESSION_SECRET, bucket, relPath, params.get("exp"), params.get("sig"));
    if (verdict !== "ok")
      return { ok: false, status: 403, message: verdict === "expired" ? "This link has expired" : "Invalid link" };
  }
  // Only a regular file whose real path stays in the bucket: a link planted under storage/ is 404.
  const real = storage.realFile(bucket, relPath);
  if (!real) return notFound;
  const type = contentTypeFor(full);
  const headers: Record<string, string> = {
    "Content-Type": type,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": isPublic ? "public, max-age=3600" : "private, no-store",
  };
  if (type === "image/svg+xml")
    headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
  const inline = params.get("disposition") === "inline" && type.startsWith("image/");
  if (!isPublic && !inline) {
    const name = bucket === "booking-files" ? downloadName(relPath) : path.basename(relPath);
    headers["Content-Disposition"] =
      `attachment; filename="${name.replace(/"/g, "")}"; filename*=UTF-8''${encodeURIComponent(name)}`;
  }
  // The real path goes to `send`: what was checked is what is sent.
  return { ok: true, file: real.file, headers };
}
