import crypto from "node:crypto";
import path from "node:path";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { createStorage, publicUrl, StorageConflictError, type Bucket } from "../storage/storage.server";
import { sniffKind, UNREADABLE_UPLOAD_MESSAGE } from "../booking/uploads.server";

/** SPEC.md §5 Admin uploads: signed-out visitors, then signed-in users who are not admins. */
export const UPLOAD_SIGNED_OUT = "You must be an admin to upload files";
export const UPLOAD_NOT_ADMIN = "Admin access required to upload files";

/** The answer to an upload by someone who is not an admin: 401 when signed out, else 403. */
export function uploadRefusal(user: { isAdmin: boolean } | null): { error: string; status: 401 | 403 } {
  return user ? { error: UPLOAD_NOT_ADMIN, status: 403 } : { error: UPLOAD_SIGNED_OUT, status: 401 };
}

export const ADMIN_UPLOAD_RULES = {
  "template-images": { maxBytes: 5 * 1024 * 1024, maxFiles: 15 },
  "template-files": { maxBytes: 100 * 1024 * 1024, maxFiles: 1 },
} as const;

const IMAGE_KINDS = new Set(["png", "jpeg", "gif", "webp"]);
const IMAGE_EXT: Record<string, string> = { png: ".png", jpeg: ".jpg", gif: ".gif", webp: ".webp" };

function rarMagic(b: Buffer) {
  return b.subarray(0, 7).toString("latin1") === "Rar!\x1a\x07\x00" || b.subarray(0, 8).toString("latin1") === "Rar!\x1a\x07\x01\x00";
}

/** slug-timestamp-random.ext */
export function adminFileName(slug: string, ext: string, now = Date.now()): string {
  const safeSlug = slug.toLowerCase().replace(/[^a-z0-9-]/g, "").slice(0, 60) || "template";
  return `${safeSlug}-${now}-${crypto.randomBytes(4).toString("hex")}${ext}`;
}

/**
 * Admin uploads to template-images (images only, by content, ≤ 5 MB, ≤ 15 files) or
 * template-files (.zip or .rar, ≤ 100 MB, 1 file). Limits are enforced while streaming.
 */
export async function receiveAdminUpload(request: Request, dataDir: string) {
  const url = new URL(request.url);
  const bucket = url.searchParams.get("bucket") as Bucket | null;
  if (bucket !== "template-images" && bucket !== "template-files") return { error: "Failed to upload file", status: 400, files: [] };
  const rules = ADMIN_UPLOAD_RULES[bucket];
  const slug = url.searchParams.get("slug") ?? "template";
  const storage = createStorage(dataDir);
  const files: { path: string; url: string; name: string; size: number }[] = [];
  let error: string | null = null;
  let status = 400;
  let seen = 0;
  const handler: UploadHandler = async ({ name, filename, data }) => {
    const drain = async () => {
      for await (const _c of data) void _c;
    };
    if (name !== "files" || !filename) {
      await drain();
      return undefined;
    }
    seen++;
    if (error) return drain().then(() => undefined);
    if (seen > rules.maxFiles) {
      error = `Maximum ${rules.maxFiles} file(s) allowed`;
      return drain().then(() => undefined);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const c of data) {
      size += c.byteLength;
      if (size > rules.maxBytes) {
        error = `File size must be under ${rules.maxBytes / 1024 / 1024}MB`;
        status = 413;
        continue;
      }
      chunks.push(c);
    }
    if (error) return undefined;
    const buf = Buffer.concat(chunks);
    let ext: string;
    if (bucket === "template-images") {
      const kind = sniffKind(buf);
      if (!kind || !IMAGE_KINDS.has(kind)) {
        error = "Only image files are allowed";
        return undefined;
      }
      ext = IMAGE_EXT[kind];
    } else {
      const given = path.extname(filename).toLowerCase();
      const isZip = buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
      if (!((given === ".zip" && isZip) || (given === ".rar" && rarMagic(buf)))) {
        error = "Only .zip and .rar files are allowed";
        return undefined;
      }
      ext = given;
    }
    const rel = adminFileName(slug, ext);
    try {
      storage.put(bucket, rel, buf);
    } catch (e) {
      error = e instanceof StorageConflictError ? "Failed to upload file" : "Failed to upload file";
      return undefined;
    }
    files.push({ path: rel, url: bucket === "template-images" ? publicUrl(bucket, rel) : rel, name: filename, size });
    return rel;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch {
    storage.removeMany(bucket, files.map((f) => f.path));
    return { error: UNREADABLE_UPLOAD_MESSAGE, status: 400, files: [] };
  }
  if (error) {
    storage.removeMany(bucket, files.map((f) => f.path));
    return { error, status, files: [] };
  }
  return { error: null, status: 200, files };
}
