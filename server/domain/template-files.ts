/**
 * Stored template files as the admin form holds them: images as public URLs
 * (`/files/template-images/<path>`), the archive as a path inside `template-files`.
 * Client-safe; the server repeats every check before it touches the disk.
 */
export const TEMPLATE_FILE_BUCKETS = ["template-images", "template-files"] as const;
export type TemplateFileBucket = (typeof TEMPLATE_FILE_BUCKETS)[number];

const IMAGE_PREFIX = "/files/template-images/";

/** A path as storage names files: relative, no empty or dot-led segment (temp files), no query. */
export function isStoredFilePath(p: string): boolean {
  return (
    p.length > 0 &&
    p.length <= 500 &&
    !p.startsWith("/") &&
    !/[\\\0?#]/.test(p) &&
    p.split("/").every((s) => s !== "" && !s.startsWith("."))
  );
}

/** The path inside `template-images` of a stored image's URL, or null for any other URL. */
export function storedImagePath(url: string): string | null {
  const u = url.trim();
  if (!u.startsWith(IMAGE_PREFIX)) return null;
  let p: string;
  try {
    p = u.slice(IMAGE_PREFIX.length).split("/").map(decodeURIComponent).join("/");
  } catch {
    return null;
  }
  return isStoredFilePath(p) ? p : null;
}

/** The path inside `template-files` named by the form's archive field, or null when it names none. */
export function storedArchivePath(fileUrl: string): string | null {
  const p = fileUrl.trim();
  return p && !p.includes("://") && isStoredFilePath(p) ? p : null;
}

/** The form's image lines that are stored files, each with its path. */
export function storedImages(imagesField: string): { url: string; path: string }[] {
  const out: { url: string; path: string }[] = [];
  for (const line of imagesField.split(/\r?\n/)) {
    const url = line.trim();
    const path = storedImagePath(url);
    if (path && !out.some((i) => i.url === url)) out.push({ url, path });
  }
  return out;
}
