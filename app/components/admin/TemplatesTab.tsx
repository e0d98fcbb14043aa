import { Pencil, Plus, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { CATEGORIES, CATEGORY_META, type Category } from "#domain/categories";
import { formatDollars } from "#domain/money";
import { storedArchivePath, storedImages, type TemplateFileBucket } from "#domain/template-files";
import { templateFormSchema } from "#domain/template-form";
import { trpc } from "~/trpc/react";
import { AdminTable, ListState } from "./AdminTable";
import type { AdminTemplate } from "./types";

type FormState = {
  name: string;
  slug: string;
  tagline: string;
  description: string;
  category: Category;
  price: string;
  originalPrice: string;
  features: string;
  included: string;
  techStack: string;
  tags: string;
  images: string;
  fileUrl: string;
};

function toForm(t?: AdminTemplate): FormState {
  return {
    name: t?.name ?? "",
    slug: t?.slug ?? "",
    tagline: t?.tagline ?? "",
    description: t?.description ?? "",
    category: t?.category ?? "portfolio",
    price: t ? (t.price / 100).toFixed(2) : "",
    originalPrice: t?.originalPrice ? (t.originalPrice / 100).toFixed(2) : "",
    features: t?.features.join("\n") ?? "",
    included: t?.included.join("\n") ?? "",
    techStack: t?.techStack.join(", ") ?? "React, TypeScript, Tailwind CSS",
    tags: t?.tags.join(", ") ?? "",
    images: t?.images.join("\n") ?? "",
    fileUrl: t?.fileUrl ?? "",
  };
}

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

function TemplateForm({ template, onDone }: { template?: AdminTemplate; onDone: () => void }) {
  const utils = trpc.useUtils();
  const [f, setF] = useState<FormState>(toForm(template));
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const toast = useToast();
  const done = async () => {
    await Promise.all([
      utils.admin.templates.list.invalidate(),
      utils.admin.stats.invalidate(),
      utils.templates.list.invalidate(),
    ]);
    toast.success(template ? "Template updated" : "Template saved");
    onDone();
  };
  const create = trpc.admin.templates.create.useMutation({
    onSuccess: done,
    onError: (e) => setError(`Error saving template: ${e.message}`),
  });
  const update = trpc.admin.templates.update.useMutation({
    onSuccess: done,
    onError: (e) => setError(`Error updating template: ${e.message}`),
  });
  const set = (k: keyof FormState) => (e: { target: { value: string } }) =>
    setF((s) => ({ ...s, [k]: e.target.value }) as FormState);
  const slugForFiles = f.slug || f.name.toLowerCase().trim().replace(/\s+/g, "-");
  const deleteFile = trpc.admin.templates.deleteFile.useMutation();
  const [removing, setRemoving] = useState<string | null>(null);
  const images = storedImages(f.images);
  const archive = storedArchivePath(f.fileUrl);

  /**
   * Remove: deletes the stored file (and, when editing, the saved template's reference to it),
   * then drops it from the form. A file that is already gone is dropped too.
   */
  async function removeFile(bucket: TemplateFileBucket, path: string, formValue: string) {
    setRemoving(path);
    setError(null);
    try {
      await deleteFile.mutateAsync({ bucket, path, templateId: template?.id });
    } catch (e) {
      if ((e as { data?: { code?: string } | null }).data?.code !== "NOT_FOUND") {
        console.error(`[admin] could not delete ${bucket}/${path}`, e);
        setError(DELETE_FILE_FAILED);
        setRemoving(null);
        return;
      }
    }
    if (bucket === "template-images")
      setF((s) => ({
        ...s,
        images: s.images
          .split("\n")
          .filter((line) => line.trim() !== formValue)
          .join("\n"),
      }));
    else setF((s) => ({ ...s, fileUrl: s.fileUrl.trim() === formValue ? "" : s.fileUrl }));
    setRemoving(null);
    await Promise.all([utils.admin.templates.list.invalidate(), utils.templates.list.invalidate()]);
  }

  async function onFiles(bucket: TemplateFileBucket, files: FileList | null) {
    if (!files?.length) return;
    setUploading(bucket);
    setError(null);
    const r = await upload(bucket, slugForFiles, files);
    setUploading(null);
    if (r.error) return setError(r.error);
    if (bucket === "template-images")
      setF((s) => ({ ...s, images: [...s.images.split("\n").filter(Boolean), ...r.urls].join("\n") }));
    else setF((s) => ({ ...s, fileUrl: r.urls[0] ?? s.fileUrl }));
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    // The server's schema, checked here first so a refused field reads as its message.
    const check = templateFormSchema.safeParse(f);
    if (!check.success) return setError(check.error.issues[0]?.message ?? "Please check the form");
    if (template) update.mutate({ id: template.id, data: f });
    else create.mutate(f);
  }

  const input = "field-input";
  return (
    <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
      {error ? (
        <p
          role="alert"
          className="rounded-field border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger sm:col-span-2"
        >
          {error}
        </p>
      ) : null}
      <div>
        <label htmlFor="t-name" className="field-label">
          Name
        </label>
        <input id="t-name" required value={f.name} onChange={set("name")} className={input} />
      </div>
      <div>
        <label htmlFor="t-slug" className="field-label">
          Slug <span className="font-normal text-ink-muted">(optional)</span>
        </label>
        <input
          id="t-slug"
          value={f.slug}
          onChange={set("slug")}
          placeholder="generated from the name"
          className={input}
        />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="t-tagline" className="field-label">
          Tagline
        </label>
        <input id="t-tagline" required value={f.tagline} onChange={set("tagline")} className={input} />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="t-description" className="field-label">
          Description
        </label>
        <textarea
          id="t-description"
          required
          rows={3}
          value={f.description}
          onChange={set("description")}
          className={input}
        />
      </div>
      <div>
        <label htmlFor="t-category" className="field-label">
          Category
        </label>
        <select id="t-category" required value={f.category} onChange={set("category")} className={input}>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {CATEGORY_META[c].label}
            </option>
          ))}
        </select>
      </div>
      <div className="grid grid-cols-2 gap-3">
        {(
          [
            ["t-price", "Price ($)", "price", true],
            ["t-original", "Original Price ($)", "originalPrice", false],
          ] as const
        ).map(([id, label, key, required]) => (
          <div key={id}>
            <label htmlFor={id} className="field-label">
              {label}
            </label>
            <input
              id={id}
              required={required}
              type="number"
              min="0"
              step="0.01"
              value={f[key]}
              onChange={set(key)}
              className={input}
            />
          </div>
        ))}
      </div>
      <div>
        <label htmlFor="t-features" className="field-label">
          Features <span className="font-normal text-ink-muted">(one per line)</span>
        </label>
        <textarea id="t-features" required rows={4} value={f.features} onChange={set("features")} className={input} />
      </div>
      <div>
        <label htmlFor="t-included" className="field-label">
          What&apos;s Included <span className="font-normal text-ink-muted">(one per line)</span>
        </label>
        <textarea id="t-included" required rows={4} value={f.included} onChange={set("included")} className={input} />
      </div>
      <div>
        <label htmlFor="t-stack" className="field-label">
          Tech stack <span className="font-normal text-ink-muted">(comma separated)</span>
        </label>
        <input id="t-stack" value={f.techStack} onChange={set("techStack")} className={input} />
      </div>
      <div>
        <label htmlFor="t-tags" className="field-label">
          Tags <span className="font-normal text-ink-muted">(comma separated)</span>
        </label>
        <input id="t-tags" value={f.tags} onChange={set("tags")} className={input} />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="t-images" className="field-label">
          Images <span className="font-normal text-ink-muted">(one URL per line, first is the main preview)</span>
        </label>
        <textarea id="t-images" rows={3} value={f.images} onChange={set("images")} className={input} />
        {images.length ? (
          <ul aria-label="Stored images" className="mt-2 grid gap-2 sm:grid-cols-2">
            {images.map((img) => (
              <li
                key={img.url}
                className="flex items-center gap-3 rounded-field border border-line px-2 py-1.5 text-sm"
              >
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
                  onClick={() => removeFile("template-images", img.path, img.url)}
                  disabled={removing !== null || uploading !== null}
                  className="font-semibold text-danger hover:underline disabled:opacity-60"
                >
                  {removing === img.path ? "Removing..." : "Remove"}
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
            onChange={(e) => onFiles("template-images", e.target.files)}
            className="mt-1 block text-sm"
            disabled={uploading !== null}
          />
        </label>
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="t-file" className="field-label">
          Template file
        </label>
        <div className="flex items-center gap-3">
          <input
            id="t-file"
            value={f.fileUrl}
            onChange={set("fileUrl")}
            placeholder="uploaded .zip or .rar"
            className={`${input} min-w-0`}
          />
          {archive ? (
            <button
              type="button"
              onClick={() => removeFile("template-files", archive, f.fileUrl.trim())}
              disabled={removing !== null || uploading !== null}
              className="shrink-0 font-semibold text-danger hover:underline disabled:opacity-60"
            >
              {removing === archive ? "Removing..." : "Remove"}
              <span className="sr-only"> {archive}</span>
            </button>
          ) : null}
        </div>
        <label className="mt-2 block text-sm">
          Upload archive (.zip or .rar, max 100MB)
          <input
            type="file"
            accept=".zip,.rar"
            onChange={(e) => onFiles("template-files", e.target.files)}
            className="mt-1 block text-sm"
            disabled={uploading !== null}
          />
        </label>
        {uploading ? (
          <p role="status" className="mt-1 text-sm text-ink-muted">
            Uploading...
          </p>
        ) : null}
      </div>
      <ModalActions onCancel={onDone} className="sm:col-span-2">
        <button
          type="submit"
          className="btn-primary"
          disabled={create.isPending || update.isPending || uploading !== null || removing !== null}
        >
          {create.isPending || update.isPending ? "Saving..." : template ? "Save changes" : "Add Template"}
        </button>
      </ModalActions>
    </form>
  );
}

export function TemplatesTab({ initial }: { initial?: AdminTemplate[] }) {
  const utils = trpc.useUtils();
  const q = trpc.admin.templates.list.useQuery(undefined, { initialData: initial });
  const [editing, setEditing] = useState<AdminTemplate | "new" | null>(null);
  const invalidate = () =>
    Promise.all([
      utils.admin.templates.list.invalidate(),
      utils.templates.list.invalidate(),
      utils.admin.stats.invalidate(),
    ]);
  // The toggle shows the new value at once and keeps it until the server's answer is in.
  const [pendingFeatured, setPendingFeatured] = useState<Record<string, boolean>>({});
  const toast = useToast();
  const nameOf = (id: string) => q.data?.find((t) => t.id === id)?.name ?? "The template";
  const feature = trpc.admin.templates.setFeatured.useMutation({
    onSuccess: (_data, { id, featured }) =>
      toast.success(featured ? `${nameOf(id)} is featured` : `${nameOf(id)} is no longer featured`),
    // The toggle goes back to the server's value when the answer is in (onSettled).
    onError: (e) => toast.error(`Error updating template: ${e.message}`),
    onSettled: async (_data, _error, { id }) => {
      await invalidate();
      setPendingFeatured(({ [id]: _done, ...rest }) => rest);
    },
  });
  const del = trpc.admin.templates.delete.useMutation({
    onSuccess: async () => {
      toast.success("Template deleted");
      await invalidate();
    },
    onError: (e) => toast.error(`Error deleting template: ${e.message}`),
  });
  const [confirmSamples, setConfirmSamples] = useState(false);
  const removeSamples = trpc.admin.templates.removeSamples.useMutation({
    onSuccess: async ({ removed, kept }) => {
      setConfirmSamples(false);
      toast.success(
        `Removed ${removed} sample ${removed === 1 ? "template" : "templates"}` +
          (kept ? `; kept ${kept} that ${kept === 1 ? "has" : "have"} purchases` : ""),
      );
      await invalidate();
    },
    onError: (e) => toast.error(`Error deleting template: ${e.message}`),
  });
  const rows = q.data ?? [];
  const samples = rows.filter((t) => t.sample).length;
  return (
    <>
      {samples ? (
        <div
          className="mb-6 flex flex-col gap-3 rounded-card border border-accent/30 bg-accent-soft/60 p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
          role="region"
          aria-label="Sample templates"
        >
          <p className="text-ink-soft">
            <span className="font-semibold text-accent-ink">
              {samples} sample {samples === 1 ? "template" : "templates"}
            </span>{" "}
            from the starter studio {samples === 1 ? "is" : "are"} in your shop.
          </p>
          <button type="button" className="btn-ghost shrink-0 px-4 py-1.5" onClick={() => setConfirmSamples(true)}>
            <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove sample templates
          </button>
        </div>
      ) : null}
      <div className="mb-4 flex justify-end">
        <button type="button" className="btn-primary" onClick={() => setEditing("new")}>
          <Plus aria-hidden="true" className="h-4 w-4" /> Add Template
        </button>
      </div>
      {confirmSamples ? (
        <Modal title="Remove sample templates?" onClose={() => setConfirmSamples(false)}>
          <p className="text-ink-soft">
            The {samples} sample {samples === 1 ? "template" : "templates"} and their files are deleted for good; they
            never come back, even after a restart. A sample someone has bought stays, so its buyer keeps the download.
          </p>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <button type="button" className="btn-ghost" onClick={() => setConfirmSamples(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn-dark bg-danger hover:bg-danger/90"
              disabled={removeSamples.isPending}
              onClick={() => removeSamples.mutate()}
            >
              {removeSamples.isPending ? "Removing..." : "Remove sample templates"}
            </button>
          </div>
        </Modal>
      ) : null}
      {q.isLoading || !rows.length ? (
        <ListState loading={q.isLoading} empty={!rows.length} what="templates" />
      ) : (
        <AdminTable
          minWidth="860px"
          columns={[
            { label: "Name" },
            { label: "Slug" },
            { label: "Category" },
            { label: "Price" },
            { label: "Sales" },
            { label: "Featured" },
            { label: "", srLabel: "Actions" },
          ]}
        >
          {rows.map((t) => (
            <tr key={t.id}>
              <td className="px-4 py-3 font-medium">
                {t.name}
                {t.sample ? (
                  <span className="ml-2 rounded-full bg-paper-sunk px-2 py-0.5 text-xs font-semibold text-ink-muted">
                    Sample
                  </span>
                ) : null}
                {t.onSale ? (
                  <span className="ml-2 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-ink">
                    On Sale
                  </span>
                ) : null}
              </td>
              <td className="px-4 py-3 text-ink-muted">{t.slug}</td>
              <td className="px-4 py-3">{CATEGORY_META[t.category].label}</td>
              <td className="px-4 py-3">{formatDollars(t.price, { decimals: 2 })}</td>
              <td className="px-4 py-3">{t.salesCount}</td>
              <td className="px-4 py-3">
                <label className="inline-flex cursor-pointer items-center gap-2">
                  <input
                    type="checkbox"
                    checked={pendingFeatured[t.id] ?? t.featured}
                    onChange={(e) => {
                      const featured = e.target.checked;
                      setPendingFeatured((p) => ({ ...p, [t.id]: featured }));
                      feature.mutate({ id: t.id, featured });
                    }}
                    className="h-4 w-4 rounded border-line-strong text-shop focus:ring-shop"
                  />
                  <span className="sr-only">Featured: {t.name}</span>
                </label>
              </td>
              <td className="px-4 py-3">
                <div className="flex justify-end gap-3">
                  <button
                    type="button"
                    onClick={() => setEditing(t)}
                    className="inline-flex items-center gap-1 font-semibold hover:underline"
                  >
                    <Pencil aria-hidden="true" className="h-4 w-4" /> Edit<span className="sr-only"> {t.name}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      if (window.confirm(`Delete ${t.name}? This cannot be undone.`)) del.mutate({ id: t.id });
                    }}
                    className="inline-flex items-center gap-1 font-semibold text-danger hover:underline"
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" /> Delete<span className="sr-only"> {t.name}</span>
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {editing ? (
        <Modal
          title={editing === "new" ? "Add Template" : `Edit ${editing.name}`}
          onClose={() => setEditing(null)}
          wide
        >
          <TemplateForm template={editing === "new" ? undefined : editing} onDone={() => setEditing(null)} />
        </Modal>
      ) : null}
    </>
  );
}
