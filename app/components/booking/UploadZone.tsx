import { FileText, UploadCloud } from "lucide-react";
import { useEffect, useRef, useState, type DragEvent } from "react";
// duplicates: a list of imports; the browser and the server (uploads.server.ts) check a file by the same rules
import {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_EXTENSIONS,
  fileTooLargeMessage,
  fileTypeMessage,
  MAX_FILE_BYTES,
  MAX_FILES,
  TOO_MANY_FILES_MESSAGE,
} from "#domain/booking-rules";
import type { UploadedFile } from "#domain/booking-state";
import { fileSize, StoredFiles } from "./StoredFiles";

/** Why the browser will not send a file, with the spec's messages; null when it may go. */
function refusal(file: File): string | null {
  const ext = file.name.includes(".") ? file.name.slice(file.name.lastIndexOf(".")).toLowerCase() : "";
  if (!ACCEPTED_EXTENSIONS.includes(ext)) return fileTypeMessage(file.name);
  if (file.size > MAX_FILE_BYTES) return fileTooLargeMessage(file.name);
  if (file.size === 0) return `Failed to upload ${file.name}: the file is empty`;
  return null;
}

type Pending = { id: number; file: File; loaded: number; started: boolean };
type UploadAnswer = { files?: UploadedFile[]; error?: string };

/** One file to POST /booking/files, with upload progress; resolves with the server's answer. */
function send(file: File, onProgress: (loaded: number) => void): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/booking/files");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      const body = (xhr.response ?? {}) as UploadAnswer;
      if (xhr.status === 413) resolve({ error: fileTooLargeMessage(file.name) });
      else if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else resolve({ files: body.files, error: body.error ?? `the server answered ${xhr.status}` });
    };
    xhr.onerror = () => resolve({ error: "the connection was interrupted" });
    const body = new FormData();
    body.append("files", file);
    xhr.send(body);
  });
}

/** A server error about one file, worded as the spec words upload failures. */
function uploadFailure(name: string, error: string) {
  if (error.startsWith("Failed to upload") || error === TOO_MANY_FILES_MESSAGE || error.endsWith("exceeds 10MB limit"))
    return error;
  return `Failed to upload ${name}: ${error}`;
}

/**
 * The upload zone with JavaScript: choosing or dropping files uploads each at once, one request
 * per file in turn, with a progress bar; the browser checks count, size and type first (the
 * server checks again). `onBusy` tells the wizard to hold Next while anything is uploading.
 */
export function UploadZone({
  files: initial,
  error: serverError,
  onBusy,
}: {
  files: UploadedFile[];
  error?: string;
  onBusy: (busy: boolean) => void;
}) {
  const [stored, setStored] = useState(initial);
  const [pending, setPending] = useState<Pending[]>([]);
  const [errors, setErrors] = useState<string[]>(serverError ? [serverError] : []);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);
  const initialKey = initial.map((f) => f.path).join("|");
  // The loader's list is the truth after a Remove (a form post) or a reload.
  useEffect(() => setStored(initial), [initialKey]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => onBusy(pending.length > 0), [pending.length, onBusy]);

  const active = pending.find((p) => p.started);
  const queued = pending.find((p) => !p.started);
  useEffect(() => {
    if (active || !queued) return;
    setPending((all) => all.map((p) => (p.id === queued.id ? { ...p, started: true } : p)));
    void send(queued.file, (loaded) =>
      setPending((all) => all.map((p) => (p.id === queued.id ? { ...p, loaded } : p))),
    ).then((answer) => {
      if (answer.files) setStored(answer.files);
      if (answer.error) setErrors((e) => [...e, uploadFailure(queued.file.name, answer.error!)]);
      setPending((all) => all.filter((p) => p.id !== queued.id));
    });
  }, [active, queued]);

  const count = stored.length + pending.length;
  const full = count >= MAX_FILES;

  function add(list: FileList | File[]) {
    const chosen = Array.from(list);
    if (!chosen.length) return;
    if (count + chosen.length > MAX_FILES) {
      setErrors([TOO_MANY_FILES_MESSAGE]);
      return;
    }
    const refused = chosen.map(refusal).filter((m): m is string => m !== null);
    const accepted = chosen.filter((f) => refusal(f) === null);
    setErrors(refused);
    setPending((all) => [
      ...all,
      ...accepted.map((file) => ({ id: nextId.current++, file, loaded: 0, started: false })),
    ]);
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (!full) add(e.dataTransfer.files);
  }

  return (
    <div className="space-y-4">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (!full) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="upload-zone"
      >
        <button
          type="button"
          disabled={full}
          onClick={() => input.current?.click()}
          aria-describedby="files-help"
          className={`flex w-full flex-col items-center justify-center rounded-card border-2 border-dashed px-6 py-10 text-center transition-colors focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink disabled:cursor-not-allowed disabled:opacity-60 ${
            dragging ? "border-ink bg-paper-sunk" : "border-line-strong bg-white hover:border-ink"
          }`}
        >
          <UploadCloud aria-hidden="true" className="h-7 w-7 text-ink-muted" />
          <span className="mt-2 font-semibold">
            {full ? "5 of 5 files uploaded" : "Choose files or drop them here"}
          </span>
          <span id="files-help" className="mt-1 text-sm text-ink-muted">
            {full ? "Remove a file to add another." : `Each file uploads at once. ${count} of ${MAX_FILES} files.`}
          </span>
        </button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="upload-input"
          onChange={(e) => {
            if (e.target.files) add(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      {errors.length ? (
        <div id="files-error" role="alert" className="space-y-1">
          {errors.map((m) => (
            <p key={m} className="field-error">
              {m}
            </p>
          ))}
        </div>
      ) : null}
      {stored.length || pending.length ? (
        <ul className="divide-y divide-line rounded-card border border-line bg-white" aria-label="Uploaded files">
          <StoredFiles files={stored} />
          {pending.map((p) => {
            const percent = p.started ? Math.min(100, Math.round((p.loaded / p.file.size) * 100)) : 0;
            return (
              <li key={p.id} className="px-4 py-3">
                <span className="flex items-center justify-between gap-3">
                  <span className="flex min-w-0 items-center gap-3">
                    <FileText aria-hidden="true" className="h-5 w-5 shrink-0 text-ink-muted" />
                    <span className="truncate">{p.file.name}</span>
                    <span className="shrink-0 text-sm text-ink-muted">{fileSize(p.file.size)}</span>
                  </span>
                  <span className="shrink-0 text-xs font-semibold text-ink-muted">
                    {p.started ? `Uploading ${percent}%` : "Waiting"}
                  </span>
                </span>
                <span
                  role="progressbar"
                  aria-label={`Uploading ${p.file.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  className="mt-2 block h-1.5 overflow-hidden rounded-full bg-paper-sunk"
                >
                  <span
                    className="block h-full rounded-full bg-ink transition-[width]"
                    style={{ width: `${percent}%` }}
                  />
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-ink-muted">No files uploaded yet.</p>
      )}
      <p className="sr-only" role="status">
        {pending.length
          ? `Uploading ${pending.length} file${pending.length > 1 ? "s" : ""}`
          : stored.length
            ? `${stored.length} of ${MAX_FILES} files uploaded`
            : ""}
      </p>
    </div>
  );
}
