import fs from "node:fs";
import { imageSize } from "image-size";
import { formatInteger } from "#domain/numbers";

/** The largest side a stored picture may have, in pixels (issue 40.5). */
export const MAX_PICTURE_SIDE = 12_000;
/**
 * How much of a file is read to find its size: all of a stored picture (at most 10 MB). A JPEG
 * states its size after its metadata (EXIF, ICC profiles), which can be megabytes long.
 */
const SCAN_BYTES = 12 * 1024 * 1024;

/** The raster kinds a browser decodes and whose size is checked (sniffKind's names). */
export const RASTER_KINDS: ReadonlySet<string> = new Set(["png", "jpeg", "gif", "webp"]);

/**
 * A picture's pixel size from its header, never decoded (image-size reads the bytes that state
 * it), or null when its bytes do not say.
 */
export function pictureSize(file: string): { width: number; height: number } | null {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(Math.min(SCAN_BYTES, fs.fstatSync(fd).size));
    const read = fs.readSync(fd, head, 0, head.length, 0);
    const size = imageSize(head.subarray(0, read));
    return size.width && size.height ? { width: size.width, height: size.height } : null;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What is wrong with a picture about to be stored: its header states no size, or a side larger
 * than MAX_PICTURE_SIDE (a small file can claim 100,000 × 100,000 pixels and stall every browser
 * that shows it). Null when it may be kept.
 */
export function pictureProblem(file: string, name: string): string | null {
  const size = pictureSize(file);
  if (!size) return `${name} could not be read as a picture`;
  if (size.width > MAX_PICTURE_SIDE || size.height > MAX_PICTURE_SIDE)
    return `${name} is ${formatInteger(size.width)} × ${formatInteger(size.height)} pixels; pictures can be at most ${formatInteger(MAX_PICTURE_SIDE)} pixels a side`;
  return null;
}
