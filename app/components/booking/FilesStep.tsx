import { FileText, Trash2 } from "lucide-react";
import { ACCEPT_ATTRIBUTE, MAX_FILES } from "~/lib/booking-schema";
import type { UploadedFile } from "~/lib/booking-state";
import { FieldError } from "./Field";

function size(bytes: number) {
  return bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Step 5: optional brand assets. Uploads go with the step's post (multipart), one list of stored files. */
export function FilesStep({ files, error, busy }: { files: UploadedFile[]; error?: string; busy: boolean }) {
  return (
    <div className="space-y-6">
      <p className="text-ink-muted">
        Logos, brand guidelines, photos or existing designs help us prepare. Optional: up to {MAX_FILES} files, 10 MB each (images, PDF,
        AI, PSD, Fig, Sketch).
      </p>
      <div>
        <label htmlFor="files" className="flex cursor-pointer flex-col items-center justify-center rounded-card border-2 border-dashed border-line-strong bg-white px-6 py-10 text-center hover:border-ink">
          <span className="font-semibold">Choose files</span>
          <span className="mt-1 text-sm text-ink-muted">They are uploaded when you continue or press Upload.</span>
        </label>
        <input id="files" name="files" type="file" multiple accept={ACCEPT_ATTRIBUTE} className="mt-3 block w-full text-sm file:mr-3 file:rounded-full file:border-0 file:bg-ink file:px-4 file:py-2 file:text-sm file:font-semibold file:text-paper" aria-describedby={error ? "files-error" : undefined} />
        <FieldError id="files" error={error} />
        <button type="submit" name="intent" value="upload" className="btn-ghost mt-4" disabled={busy}>
          {busy ? "Uploading..." : "Upload"}
        </button>
      </div>
      {files.length ? (
        <ul className="divide-y divide-line rounded-card border border-line bg-white" aria-label="Uploaded files">
          {files.map((f) => (
            <li key={f.path} className="flex items-center justify-between gap-3 px-4 py-3">
              <span className="flex min-w-0 items-center gap-3">
                <FileText aria-hidden="true" className="h-5 w-5 shrink-0 text-ink-muted" />
                <span className="truncate">{f.name}</span>
                <span className="shrink-0 text-sm text-ink-muted">{size(f.size)}</span>
                <span className="shrink-0 rounded-full bg-shop-soft px-2 py-0.5 text-xs font-semibold text-shop-ink">Done</span>
              </span>
              <button type="submit" name="remove" value={f.path} className="inline-flex items-center gap-1 text-sm text-ink-muted hover:text-danger" aria-label={`Remove ${f.name}`}>
                <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-ink-muted">No files uploaded yet.</p>
      )}
    </div>
  );
}
