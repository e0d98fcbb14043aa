import crypto from "node:crypto";
import { MAX_CASE_STUDY_IMAGES, MAX_IMAGE_BYTES } from "#domain/studio-settings";
import { sniffKind, UNREADABLE_UPLOAD_MESSAGE } from "../storage/sniff";
import type { MultipartResult, UploadRules } from "../storage/multipart.server";
import { createStorage, publicUrl } from "../storage/storage.server";
import { pictureProblem } from "../storage/pictures.server";

const EXT = { png: ".png", jpeg: ".jpg", webp: ".webp" } as const;
const PREFIX = "/files/studio-images/";

export type StudioImagesResult = {
  /** The form's text fields. */
  fields: FormData;
  /** The pictures stored, in the order sent: their public URL. */
  stored: string[];
  /** The first refusal, in words (nothing of the batch is kept then). */
  error: string | null;
};

/** What the case-study form accepts: 10 MB a picture, as many as a case study holds. */
export const STUDIO_IMAGE_RULES: UploadRules = {
  maxFileBytes: MAX_IMAGE_BYTES,
  maxFiles: MAX_CASE_STUDY_IMAGES,
  fileField: "newImages",
};

/**
 * The case-study form with its new pictures (Settings → Case studies), as received (its pictures wait in
 * temporary files, never in memory), each picture at most 10 MB and a PNG, JPEG or WebP by
 * its first bytes (an SVG, a GIF or anything else is refused by name), stored in the public
 * `studio-images` bucket under a random name. A refusal keeps nothing.
 */
export async function storeStudioImages(
  received: MultipartResult | null,
  dataDir: string,
): Promise<StudioImagesResult> {
  // Null: the body could not be read (server/http/uploads.server.ts).
  if (!received) return { fields: new FormData(), stored: [], error: UNREADABLE_UPLOAD_MESSAGE };
  const storage = createStorage(dataDir);
  const stored: string[] = [];
  let error: string | null = null;
  try {
    for (const file of received.files) {
      if (file.field !== "newImages" || !file.filename) continue;
      const name = file.filename.slice(0, 120);
      if (file.skipped) error = `At most ${MAX_CASE_STUDY_IMAGES} images per case study`;
      else if (file.tooLarge) error = `${name} is over 10 MB`;
      if (error) break;
      if (!file.tmpPath) continue; // an empty file input
      const kind = sniffKind(file.head);
      if (kind !== "png" && kind !== "jpeg" && kind !== "webp") {
        error = `${name} is not a PNG, JPEG or WebP image`;
        break;
      }
      const picture = pictureProblem(file.tmpPath, name);
      if (picture) {
        error = picture;
        break;
      }
      const rel = `case-${Date.now()}-${crypto.randomBytes(6).toString("hex")}${EXT[kind]}`;
      try {
        storage.putFile("studio-images", rel, file.tmpPath);
      } finally {
        file.tmpPath = null;
      }
      stored.push(publicUrl("studio-images", rel));
    }
  } catch (e) {
    // A full disk (StorageFullError) or any other failure: nothing of the batch is kept.
    removeStudioImages(dataDir, stored);
    throw e;
  } finally {
    received.cleanup();
  }
  if (error) {
    removeStudioImages(dataDir, stored);
    return { fields: received.fields, stored: [], error };
  }
  return { fields: received.fields, stored, error: null };
}

/** Deletes pictures of the `studio-images` bucket by their public URL (others are ignored). */
export function removeStudioImages(dataDir: string, urls: string[]): void {
  const paths = urls.filter((u) => u.startsWith(PREFIX)).map((u) => decodeURIComponent(u.slice(PREFIX.length)));
  if (paths.length) createStorage(dataDir).removeMany("studio-images", paths);
}
