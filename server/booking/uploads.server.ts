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
import { MalformedUpload, receiveMultipart, type MultipartResult } from "../storage/multipart.server";
import { createStorage, safeFileName, StorageConflictError, StorageFullError } from "../storage/storage.server";
import { pictureProblem, RASTER_KINDS } from "../storage/pictures.server";

/** What a file's first bytes say it is; null when unrecognised. */
export function sniffKind(
  head: Uint8Array,
): "png" | "jpeg" | "gif" | "webp" | "svg" | "pdf" | "postscript" | "psd" | "zip" | "fig" | null {
  const b = Buffer.from(head.subarray(0, 512));
  const starts = (sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a")
    return "gif";
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  if (b.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  if (b.subarray(0, 4).toString("latin1") === "%!PS") return "postscript";
  if (b.subarray(0, 4).toString("latin1") === "8BPS") return "psd";
  if (starts([0x50, 0x4b, 0x03, 0x04])) return "zip";
  if (b.subarray(0, 8).toString("latin1") === "fig-kiwi") return "fig";
  const textHead = b.toString("utf8").trimStart().toLowerCase();
  if ((textHead.startsWith("<svg") || textHead.startsWith("<?xml")) && textHead.includes("<svg")) return "svg";
  return null;
}

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

export const UNREADABLE_UPLOAD_MESSAGE = "The upload could not be read. Please try again.";

/**
 * Reads the step-5 multipart body as it streams (files go to temporary files, never into
 * memory): at most 5 files in total (with those already uploaded), 10 MB each, images, PDF, AI,
 * PSD, Fig and Sketch only (decided by content, not by name or the browser's claim). Files are
 * stored at booking-files/bookings/{bookingId}/{timestamp}-{safe name}, never overwriting.
 * A full disk throws `StorageFullError` with nothing of the batch left behind.
 */
export async function receiveBookingFiles(
  request: Request,
  opts: { dataDir: string; bookingId: string; alreadyUploaded: number; now?: () => number },
): Promise<{ form: FormData; stored: UploadedFile[]; error: string | null }> {
  const storage = createStorage(opts.dataDir);
  const now = opts.now ?? Date.now;
  let received: MultipartResult;
  try {
    received = await receiveMultipart(request, {
      tmpDir: storage.uploadTmpDir,
      maxFileBytes: MAX_FILE_BYTES,
      maxFiles: Math.max(0, MAX_FILES - opts.alreadyUploaded),
      fileField: "files",
    });
  } catch (error) {
    // A malformed or cut-off multipart body: nothing of it is kept.
    if (error instanceof MalformedUpload) return { form: new FormData(), stored: [], error: UNREADABLE_UPLOAD_MESSAGE };
    throw error;
  }
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
