import { ACCEPT_ATTRIBUTE, MAX_FILES } from "#domain/booking-rules";
import type { UploadedFile } from "#domain/booking-state";
import { FieldError } from "./Field";
import { laterSteps } from "./later-steps";
import { StoredFiles } from "./StoredFiles";

/**
 * Step 5: optional brand assets. Without JavaScript the files go with the step's post (multipart,
 * the native input and an Upload button); with it, the upload zone sends each file at once (until
 * its code has arrived, the form without it shows, and works).
 */
export function FilesStep({
  files,
  error,
  busy,
  enhanced,
  onUploading,
}: {
  files: UploadedFile[];
  error?: string;
  busy: boolean;
  enhanced: boolean;
  onUploading: (busy: boolean) => void;
}) {
  const intro = (
    <p className="text-ink-muted">
      Logos, brand guidelines, photos or existing designs help us prepare. Optional: up to {MAX_FILES} files, 10 MB each
      (images, PDF, AI, PSD, Fig, Sketch).
    </p>
  );
  const zone = laterSteps.useModule(enhanced);
  if (enhanced && zone) {
    const { UploadZone } = zone;
    return (
      <div className="space-y-6">
        {intro}
        <UploadZone files={files} error={error} onBusy={onUploading} />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      {intro}
      <div>
        <label
          htmlFor="files"
          className="flex cursor-pointer flex-col items-center justify-center rounded-card border-2 border-dashed border-line-strong bg-white px-6 py-10 text-center hover:border-ink"
        >
          <span className="font-semibold">Choose files</span>
          <span className="mt-1 text-sm text-ink-muted">They are uploaded when you continue or press Upload.</span>
        </label>
        <input
          id="files"
          name="files"
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="mt-3 block w-full text-sm file:mr-3 file:rounded-full file:border-0 file:bg-ink file:px-4 file:py-2 file:text-sm file:font-semibold file:text-paper"
          aria-describedby={error ? "files-error" : undefined}
        />
        <FieldError id="files" error={error} />
        <button type="submit" name="intent" value="upload" className="btn-ghost mt-4" disabled={busy}>
          {busy ? "Uploading..." : "Upload"}
        </button>
      </div>
      {files.length ? (
        <ul className="divide-y divide-line rounded-card border border-line bg-white" aria-label="Uploaded files">
          <StoredFiles files={files} />
        </ul>
      ) : (
        <p className="text-sm text-ink-muted">No files uploaded yet.</p>
      )}
    </div>
  );
}
