import path from "node:path";
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { ACCEPTED_EXTENSIONS, fileTooLargeMessage, MAX_FILE_BYTES, MAX_FILES, TOO_MANY_FILES_MESSAGE } from "~/lib/booking-schema";
import type { UploadedFile } from "~/lib/booking-state";
import { createStorage, safeFileName } from "../storage/storage.server";

/** What a file's first bytes say it is; null when unrecognised. */
export function sniffKind(head: Uint8Array): "png" | "jpeg" | "gif" | "webp" | "svg" | "pdf" | "postscript" | "psd" | "zip" | "fig" | null {
  const b = Buffer.from(head.subarray(0, 512));
  const starts = (sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a") return "gif";
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

export class UploadRejected extends Error {}

export const UNREADABLE_UPLOAD_MESSAGE = "The upload could not be read. Please try again.";

/**
 * Parses the step-5 multipart body, enforcing the limits while streaming: at most 5 files in
 * total (with those already uploaded), 10 MB each, images, PDF, AI, PSD, Fig and Sketch only
 * (decided by content, not by name or the browser's claim). Files are stored at
 * booking-files/bookings/{bookingId}/{timestamp}-{safe name}, never overwriting.
 */
export async function receiveBookingFiles(
  request: Request,
  opts: { dataDir: string; bookingId: string; alreadyUploaded: number; now?: () => number },
): Promise<{ form: FormData; stored: UploadedFile[]; error: string | null }> {
  const storage = createStorage(opts.dataDir);
  const stored: UploadedFile[] = [];
  let error: string | null = null;
  const now = opts.now ?? Date.now;

  const handler: UploadHandler = async ({ name, filename, data }) => {
    if (name !== "files" || !filename) {
      if (filename) {
        for await (const _chunk of data) void _chunk;
        return undefined;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of data) {
        size += chunk.byteLength;
        if (size > 64 * 1024) throw new UploadRejected("Form field too large");
        chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString("utf8");
    }
    const display = path.basename(filename.replace(/\\/g, "/")).slice(0, 200);
    if (error) {
      for await (const _chunk of data) void _chunk;
      return undefined;
    }
    if (opts.alreadyUploaded + stored.length >= MAX_FILES) {
      error = TOO_MANY_FILES_MESSAGE;
      for await (const _chunk of data) void _chunk;
      return undefined;
    }
    const ext = path.extname(display).toLowerCase();
    const chunks: Uint8Array[] = [];
    let size = 0;
    let tooLarge = false;
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size > MAX_FILE_BYTES) {
        tooLarge = true;
        continue; // drain without buffering
      }
      chunks.push(chunk);
    }
    if (tooLarge) {
      error = fileTooLargeMessage(display);
      return undefined;
    }
    if (size === 0) return undefined;
    const buf = Buffer.concat(chunks);
    const kind = sniffKind(buf);
    if (!ACCEPTED_EXTENSIONS.includes(ext) || !kind || !KINDS_BY_EXTENSION[ext]?.includes(kind)) {
      error = `Failed to upload ${display}: only images, PDF, AI, PSD, Fig and Sketch files are accepted`;
      return undefined;
    }
    const rel = `bookings/${opts.bookingId}/${now()}-${safeFileName(display)}`;
    try {
      storage.put("booking-files", rel, buf);
    } catch (e) {
      error = `Failed to upload ${display}: ${e instanceof Error ? e.message : "storage error"}`;
      return undefined;
    }
    stored.push({ name: display, size, path: rel });
    return rel;
  };

  // Files that passed are kept and a failed one is dropped and reported, except when the batch
  // would exceed the total: then none of it is kept.
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(request, handler);
  } catch {
    // A malformed or cut-off multipart body: nothing of it is kept.
    storage.removeMany("booking-files", stored.map((f) => f.path));
    return { form: new FormData(), stored: [], error: UNREADABLE_UPLOAD_MESSAGE };
  }
  if (error === TOO_MANY_FILES_MESSAGE && stored.length) {
    storage.removeMany("booking-files", stored.map((f) => f.path));
    return { form, stored: [], error };
  }
  return { form, stored, error };
}
