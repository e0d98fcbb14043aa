import crypto from "node:crypto";
import type { Refusal } from "../auth/guards.server";
import path from "node:path";
import type { MultipartResult, UploadRules } from "../storage/multipart.server";
import { createStorage, publicUrl, StorageFullError, type Bucket } from "../storage/storage.server";
import { sniffKind, UNREADABLE_UPLOAD_MESSAGE } from "../storage/sniff";
import { pictureProblem } from "../storage/pictures.server";

/** SPEC.md §5 Admin uploads: signed-out visitors, then signed-in users who are not admins. */
export const UPLOAD_SIGNED_OUT = "You must be an admin to upload files";
export const UPLOAD_NOT_ADMIN = "Admin access required to upload files";

/** The words of the guard's refusal of an upload (401 signed out, 403 not an admin). */
export function uploadRefusal(refusal: Refusal): string {
  return refusal === "signed-out" ? UPLOAD_SIGNED_OUT : UPLOAD_NOT_ADMIN;
}

export const ADMIN_UPLOAD_RULES = {
  "template-images": { maxBytes: 5 * 1024 * 1024, maxFiles: 15 },
  "template-files": { maxBytes: 100 * 1024 * 1024, maxFiles: 1 },
} as const;

const IMAGE_KINDS = new Set(["png", "jpeg", "gif", "webp"]);
const IMAGE_EXT: Record<string, string> = { png: ".png", jpeg: ".jpg", gif: ".gif", webp: ".webp" };

function rarMagic(b: Buffer) {
  return (
    b.subarray(0, 7).toString("latin1") === "Rar!\x1a\x07\x00" ||
    b.subarray(0, 8).toString("latin1") === "Rar!\x1a\x07\x01\x00"
  );
}

/** slug-timestamp-random.ext */
export function adminFileName(slug: string, ext: string, now = Date.now()): string {
  const safeSlug =
    slug
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "")
      .slice(0, 60) || "template";
  return `${safeSlug}-${now}-${crypto.randomBytes(4).toString("hex")}${ext}`;
}

/**
 * Admin uploads to template-images (images only, by content, ≤ 5 MB, ≤ 15 files) or
 * template-files (.zip or .rar, ≤ 100 MB, 1 file), as received (files wait in temporary files:
 * a 100 MB archive never sits in memory); the type comes from the first bytes.
 * A full disk throws `StorageFullError` with nothing of the batch left behind.
 */
export type AdminBucket = keyof typeof ADMIN_UPLOAD_RULES;

/** The bucket a request names, or null for any other. */
export function adminBucket(name: string | null): AdminBucket | null {
  return name === "template-images" || name === "template-files" ? name : null;
}

/** What the bucket accepts, as the upload's door reads it (server/http/uploads.server.ts). */
export function adminUploadRules(bucket: AdminBucket): UploadRules {
  const rules = ADMIN_UPLOAD_RULES[bucket];
  return { maxFileBytes: rules.maxBytes, maxFiles: rules.maxFiles, fileField: "files" };
}

export type AdminUploadResult = {
  error: string | null;
  /** The refusal was a file over the bucket's size (the route answers 413). */
  tooLarge: boolean;
  files: { path: string; url: string; name: string; size: number }[];
};

export async function storeAdminUpload(
  received: MultipartResult | null,
  opts: { dataDir: string; bucket: AdminBucket; slug: string },
): Promise<AdminUploadResult> {
  if (!received) return { error: UNREADABLE_UPLOAD_MESSAGE, tooLarge: false, files: [] };
  const { bucket, slug } = opts;
  const rules = ADMIN_UPLOAD_RULES[bucket];
  const storage = createStorage(opts.dataDir);
  const files: AdminUploadResult["files"] = [];
  let error: string | null = null;
  let tooLarge = false;
  try {
    for (const file of received.files) {
      if (file.field !== "files" || !file.filename) continue;
      if (file.skipped) error = `Maximum ${rules.maxFiles} file(s) allowed`;
      else if (file.tooLarge) {
        error = `File size must be under ${rules.maxBytes / 1024 / 1024}MB`;
        tooLarge = true;
      }
      if (error) break;
      if (!file.tmpPath) continue; // empty
      const ext = adminFileExtension(bucket, file.filename, file.head);
      if (!ext) {
        error = bucket === "template-images" ? "Only image files are allowed" : "Only .zip and .rar files are allowed";
        break;
      }
      const picture = bucket === "template-images" ? pictureProblem(file.tmpPath, file.filename.slice(0, 120)) : null;
      if (picture) {
        error = picture;
        break;
      }
      const rel = adminFileName(slug, ext);
      try {
        storage.putFile(bucket, rel, file.tmpPath);
      } catch (e) {
        if (e instanceof StorageFullError) throw e;
        error = "Failed to upload file";
        break;
      } finally {
        file.tmpPath = null;
      }
      files.push({
        path: rel,
        url: bucket === "template-images" ? publicUrl(bucket, rel) : rel,
        name: file.filename,
        size: file.size,
      });
    }
  } catch (e) {
    storage.removeMany(
      bucket,
      files.map((f) => f.path),
    );
    throw e;
  } finally {
    received.cleanup();
  }
  if (error) {
    storage.removeMany(
      bucket,
      files.map((f) => f.path),
    );
    return { error, tooLarge, files: [] };
  }
  return { error: null, tooLarge: false, files };
}

/** The stored extension for an accepted file (images by content; archives by name and content), else null. */
function adminFileExtension(bucket: Bucket, filename: string, head: Buffer): string | null {
  if (bucket === "template-images") {
    const kind = sniffKind(head);
    return kind && IMAGE_KINDS.has(kind) ? IMAGE_EXT[kind] : null;
  }
  const given = path.extname(filename).toLowerCase();
  const isZip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  return (given === ".zip" && isZip) || (given === ".rar" && rarMagic(head)) ? given : null;
}
