import { useState } from "react";
import { storedArchivePath, storedImages, type TemplateFileBucket } from "#domain/template-files";
import { trpc } from "~/trpc/react";

/** SPEC.md §5 Admin uploads: any failure to remove a stored file. */
const DELETE_FILE_FAILED = "Failed to delete file";

async function upload(
  bucket: TemplateFileBucket,
  slug: string,
  files: FileList,
): Promise<{ urls: string[]; error?: string }> {
  const body = new FormData();
  for (const f of Array.from(files)) body.append("files", f);
  try {
    const res = await fetch(`/admin/upload?bucket=${bucket}&slug=${encodeURIComponent(slug || "template")}`, {
      method: "POST",
      body,
      credentials: "same-origin",
    });
    const json = (await res.json().catch(() => ({}))) as { files?: { url: string }[]; error?: string };
    if (!res.ok) return { urls: [], error: json.error ?? "Failed to upload file" };
    return { urls: (json.files ?? []).map((f) => f.url) };
  } catch {
    return { urls: [], error: "Failed to upload file" };
  }
}

/** What the form's input `name` holds now (conform keeps a form's values in its inputs). */
function current(formId: string, name: string): string {
  const el = document.forms.namedItem(formId)?.elements.namedItem(name);
  return el && "value" in el ? String(el.value) : "";
}

/**
 * The template's stored files as its form holds them (the images' URLs one per line, the
 * archive's URL). Uploading adds to those fields; Remove deletes the stored file (and, when
 * editing, the saved template's reference to it), then drops it from the form. A file that is
 * already gone is dropped too. `set` writes a field through conform.
 */
export function useTemplateFiles({
  formId,
  templateId,
  slug,
  set,
  onError,
}: {
  formId: string;
  templateId?: string;
  slug: string;
  set: (name: "images" | "fileUrl", value: string) => void;
  onError: (message: string | null) => void;
}) {
  const utils = trpc.useUtils();
  const deleteFile = trpc.admin.templates.deleteFile.useMutation();
  const [uploading, setUploading] = useState<TemplateFileBucket | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  async function remove(bucket: TemplateFileBucket, path: string, formValue: string) {
    setRemoving(path);
    onError(null);
    try {
      await deleteFile.mutateAsync({ bucket, path, templateId });
    } catch (e) {
      if ((e as { data?: { code?: string } | null }).data?.code !== "NOT_FOUND") {
        console.error(`[admin] could not delete ${bucket}/${path}`, e);
        onError(DELETE_FILE_FAILED);
        setRemoving(null);
        return;
      }
    }
    if (bucket === "template-images")
      set(
        "images",
        current(formId, "images")
          .split("\n")
          .filter((line) => line.trim() !== formValue)
          .join("\n"),
      );
    else if (current(formId, "fileUrl").trim() === formValue) set("fileUrl", "");
    setRemoving(null);
    await Promise.all([utils.admin.templates.list.invalidate(), utils.templates.list.invalidate()]);
  }

  async function add(bucket: TemplateFileBucket, files: FileList | null) {
    if (!files?.length) return;
    setUploading(bucket);
    onError(null);
    const r = await upload(bucket, slug, files);
    setUploading(null);
    if (r.error) return onError(r.error);
    if (bucket === "template-images")
      set("images", [...current(formId, "images").split("\n").filter(Boolean), ...r.urls].join("\n"));
    else if (r.urls[0]) set("fileUrl", r.urls[0]);
  }

  return { uploading, removing, busy: uploading !== null || removing !== null, add, remove };
}

type Files = ReturnType<typeof useTemplateFiles>;

/** The stored images under the Images field, each with its thumbnail and Remove, then the upload. */
export function StoredImages({ images, files }: { images: string; files: Files }) {
  const stored = storedImages(images);
  return (
    <>
      {stored.length ? (
        <ul aria-label="Stored images" className="mt-2 grid gap-2 sm:grid-cols-2">
          {stored.map((img) => (
            <li key={img.url} className="flex items-center gap-3 rounded-field border border-line px-2 py-1.5 text-sm">
              <img
                src={img.url}
                alt=""
                width={48}
                height={32}
                loading="lazy"
                className="h-8 w-12 shrink-0 rounded-sm border border-line object-cover"
              />
              <span className="min-w-0 flex-1 truncate" title={img.path}>
                {img.path}
              </span>
              <button
                type="button"
                onClick={() => files.remove("template-images", img.path, img.url)}
                disabled={files.busy}
                className="font-semibold text-danger hover:underline disabled:opacity-60"
              >
                {files.removing === img.path ? "Removing..." : "Remove"}
                <span className="sr-only"> {img.path}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label className="mt-2 block text-sm">
        Upload images (max 5MB each, up to 15)
        <input
          type="file"
          accept="image/*"
          multiple
          onChange={(e) => files.add("template-images", e.target.files)}
          className="mt-1 block text-sm"
          disabled={files.uploading !== null}
        />
      </label>
    </>
  );
}

/** Remove beside the Template file field, when it holds a stored archive. */
export function RemoveArchive({ fileUrl, files }: { fileUrl: string; files: Files }) {
  const archive = storedArchivePath(fileUrl);
  if (!archive) return null;
  return (
    <button
      type="button"
      onClick={() => files.remove("template-files", archive, fileUrl.trim())}
      disabled={files.busy}
      className="mb-3 shrink-0 font-semibold text-danger hover:underline disabled:opacity-60"
    >
      {files.removing === archive ? "Removing..." : "Remove"}
      <span className="sr-only"> {archive}</span>
    </button>
  );
}

/** The archive's upload under the Template file field, and "Uploading..." while any upload runs. */
export function ArchiveUpload({ files }: { files: Files }) {
  return (
    <>
      <label className="mt-2 block text-sm">
        Upload archive (.zip or .rar, max 100MB)
        <input
          type="file"
          accept=".zip,.rar"
          onChange={(e) => files.add("template-files", e.target.files)}
          className="mt-1 block text-sm"
          disabled={files.uploading !== null}
        />
      </label>
      {files.uploading ? (
        <p role="status" className="mt-1 text-sm text-ink-muted">
          Uploading...
        </p>
      ) : null}
    </>
  );
}
