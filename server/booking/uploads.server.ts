import path from "node:path";
// duplicates: a list of imports; the server and the browser (FilesStep.tsx) check a file by the same rules
import {
  ACCEPTED_EXTENSIONS,
  fileTooLargeMessage,
  fileTypeMessage,
  MAX_FILE_BYTES,
  MAX_FILES,
  TOO_MANY_FILES_MESSAGE,
} from "#domain/booking-schema";
import type { UploadedFile } from "#domain/booking-state";
import type { MultipartResult, UploadRules } from "../storage/multipart.server";
import { createStorage, safeFileName, StorageConflictError, StorageFullError } from "../storage/storage.server";
import { pictureProblem, RASTER_KINDS } from "../storage/pictures.server";
import { sniffKind, UNREADABLE_UPLOAD_MESSAGE } from "../storage/sniff";

const KINDS_BY_EXTENSION: Record<string, string[]> = {
  ".png": ["png"],
  ".jpg": ["jpeg"],
  ".jpeg": ["jpeg"],
  ".gif": ["gif"],
  ".webp": ["webp"],
  ".svg": ["svg"],
  ".pdf": ["pdf"],
  ".ai": ["pdf", "postscript"],
  ".psd": ["psd"],
  ".fig": ["fig", "zip"],
  ".sketch": ["zip"],
};

/** What step 5 accepts now: 10 MB a file, 5 files with those already uploaded. */
export function bookingUploadRules(alreadyUploaded: number): UploadRules {
  return { maxFileBytes: MAX_FILE_BYTES, maxFiles: Math.max(0, MAX_FILES - alreadyUploaded), fileField: "files" };
}

/**
 * Stores what the step-5 multipart body brought (its files wait in temporary files, never in
 * memory): at most 5 files in total (with those already uploaded), 10 MB each, images, PDF, AI,
 * PSD, Fig and Sketch only (decided by content, not by name or the browser's claim). Files are
 * stored at booking-files/bookings/{bookingId}/{timestamp}-{safe name}, never overwriting.
 * A full disk throws `StorageFullError` with nothing of the batch left behind.
 */
export async function storeBookingFiles(
  received: MultipartResult | null,
  opts: { dataDir: string; bookingId: string; now?: () => number },
): Promise<{ form: FormData; stored: UploadedFile[]; error: string | null }> {
  // A malformed or cut-off multipart body (server/http/uploads.server.ts): nothing of it is kept.
  if (!received) return { form: new FormData(), stored: [], error: UNREADABLE_UPLOAD_MESSAGE };
  const storage = createStorage(opts.dataDir);
  const now = opts.now ?? Date.now;
  const stored: UploadedFile[] = [];
  let error: string | null = null;
  try {
    for (const file of received.files) {
      if (file.field !== "files" || !file.filename) continue;
      const display = path.basename(file.filename.replace(/\\/g, "/")).slice(0, 200);
      if (file.skipped) error = TOO_MANY_FILES_MESSAGE;
      else if (file.tooLarge) error = fileTooLargeMessage(display);
      if (error) break;
      if (!file.tmpPath) continue; // empty
      const ext = path.extname(display).toLowerCase();
      const kind = sniffKind(file.head);
      if (!ACCEPTED_EXTENSIONS.includes(ext) || !kind || !KINDS_BY_EXTENSION[ext]?.includes(kind)) {
        error = fileTypeMessage(display);
        break;
      }
      const picture = RASTER_KINDS.has(kind) ? pictureProblem(file.tmpPath, display) : null;
      if (picture) {
        error = picture;
        break;
      }
      const rel = `bookings/${opts.bookingId}/${now()}-${safeFileName(display)}`;
      try {
        storage.putFile("booking-files", rel, file.tmpPath);
      } catch (e) {
        if (e instanceof StorageFullError) throw e;
        error = `Failed to upload ${display}: ${e instanceof StorageConflictError ? "please try again" : "storage error"}`;
        break;
      } finally {
        file.tmpPath = null;
      }
      stored.push({ name: display, size: file.size, path: rel });
    }
  } catch (e) {
    storage.removeMany(
      "booking-files",
      stored.map((f) => f.path),
    );
    throw e;
  } finally {
    received.cleanup();
  }
  // Files that passed are kept and a failed one is dropped and reported, except when the batch
  // would exceed the total: then none of it is kept.
  if (error === TOO_MANY_FILES_MESSAGE && stored.length) {
    storage.removeMany(
      "booking-files",
      stored.map((f) => f.path),
    );
    return { form: received.fields, stored: [], error };
  }
  return { form: received.fields, stored, error };
}
