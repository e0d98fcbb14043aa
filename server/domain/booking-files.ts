/** A booking's uploaded files as the admin console lists them (client-safe). */

/** Files the browser can show in a tab (the file route serves these inline on request). */
export function isViewableImage(name: string): boolean {
  return /\.(png|jpe?g|gif|webp|avif|svg)$/i.test(name);
}

/** SPEC.md §8 Booking files: what the details modal says when a signed link cannot be had. */
export const BOOKING_FILE_ERRORS = {
  view: "Failed to view file",
  download: "Failed to download file",
} as const;

export type BookingFilePurpose = keyof typeof BOOKING_FILE_ERRORS;

/**
 * The booking's stored paths with the names the client gave them (or, for old rows without
 * names, the stored name without its leading number prefix).
 */
export function bookingFileEntries(files: readonly { name: string; size: number }[], paths: readonly string[]) {
  return paths.map((path, i) => ({
    path,
    name: files[i]?.name ?? (path.split("/").pop() ?? path).replace(/^\d+-/, ""),
    size: files[i]?.size ?? 0,
  }));
}
