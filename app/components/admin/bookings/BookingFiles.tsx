import { useState } from "react";
import {
  BOOKING_FILE_ERRORS,
  bookingFileEntries,
  isViewableImage,
  type BookingFilePurpose,
} from "#domain/booking-files";
import { trpc } from "~/trpc/react";
import type { AdminBooking } from "../types";

/** Opens `url` in `tab` (opened during the click, so popup blockers let it through), cut off from this page. */
function showIn(tab: Window | null, url: string) {
  const absolute = new URL(url, window.location.href).href;
  if (!tab) {
    window.open(absolute, "_blank", "noopener");
    return;
  }
  tab.opener = null;
  tab.location.replace(absolute);
}

/** Starts a download of `url` under `name` (the server also answers it as an attachment). */
function saveAs(url: string, name: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * The booking's uploaded files. View (images, new tab) and Download each ask the server for a
 * fresh one-hour signed link when clicked, and say so in their own words when they cannot get one.
 */
export function BookingFiles({ booking }: { booking: AdminBooking }) {
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const files = bookingFileEntries(booking.uploadedFiles, booking.uploadedFileUrls);
  if (!files.length) return <p className="text-sm text-ink-muted">No files uploaded for this booking.</p>;

  async function open(file: { path: string; name: string }, purpose: BookingFilePurpose) {
    setError(null);
    setBusy(`${purpose}:${file.path}`);
    const tab = purpose === "view" ? window.open("", "_blank") : null;
    try {
      const { url } = await utils.client.admin.bookings.fileLink.query({ id: booking.id, path: file.path, purpose });
      if (purpose === "view") showIn(tab, url);
      else saveAs(url, file.name);
    } catch (e) {
      tab?.close();
      console.error(`[admin] could not get a ${purpose} link for ${file.path}`, e);
      setError(BOOKING_FILE_ERRORS[purpose]);
    } finally {
      setBusy(null);
    }
  }

  const action = "font-semibold text-accent-ink hover:underline disabled:opacity-60";
  return (
    <>
      <ul className="divide-y divide-line rounded-field border border-line">
        {files.map((f) => (
          <li key={f.path} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
            <span className="truncate">{f.name}</span>
            <span className="flex gap-3">
              {isViewableImage(f.path) ? (
                <button type="button" className={action} disabled={busy !== null} onClick={() => open(f, "view")}>
                  View<span className="sr-only"> {f.name}</span>
                </button>
              ) : null}
              <button type="button" className={action} disabled={busy !== null} onClick={() => open(f, "download")}>
                Download<span className="sr-only"> {f.name}</span>
              </button>
            </span>
          </li>
        ))}
      </ul>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}
