import { CheckCircle2, FileText, Trash2 } from "lucide-react";
import type { UploadedFile } from "#domain/booking-state";

/** A file's size as the list shows it. */
export function fileSize(bytes: number) {
  return bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The files already stored, each with a Remove button (a form post, with or without JavaScript). */
export function StoredFiles({ files }: { files: UploadedFile[] }) {
  return files.map((f) => (
    <li key={f.path} className="flex items-center justify-between gap-3 px-4 py-3">
      <span className="flex min-w-0 items-center gap-3">
        <FileText aria-hidden="true" className="h-5 w-5 shrink-0 text-ink-muted" />
        <span className="truncate">{f.name}</span>
        <span className="shrink-0 text-sm text-ink-muted">{fileSize(f.size)}</span>
        <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-shop-soft px-2 py-0.5 text-xs font-semibold text-shop-ink">
          <CheckCircle2 aria-hidden="true" className="h-3 w-3" /> Done
        </span>
      </span>
      <button
        type="submit"
        name="remove"
        value={f.path}
        formNoValidate
        className="inline-flex shrink-0 items-center gap-1 text-sm text-ink-muted hover:text-danger"
        aria-label={`Remove ${f.name}`}
      >
        <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
      </button>
    </li>
  ));
}
