/**
 * What an upload is, decided by its first bytes, never by its name or the browser's claim: shared
 * by every upload (booking files, the console's template files, the studio's pictures).
 */

/** What the visitor reads when a multipart body cannot be read at all. */
export const UNREADABLE_UPLOAD_MESSAGE = "The upload could not be read. Please try again.";

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
