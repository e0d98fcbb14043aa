import { Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { CATEGORY_META } from "#domain/categories";
import { formatDollars } from "#domain/money";
import { trpc } from "~/trpc/react";
import { AdminTable, ListState } from "../AdminTable";
import type { AdminTemplate } from "../types";
import { SampleTemplates } from "./SampleTemplates";
import { TemplateForm } from "./TemplateForm";

/** The console's Templates (/admin/templates): every template with its sales, Featured, Edit and Delete; Add. */
export function TemplatesScreen({ initial }: { initial?: AdminTemplate[] }) {
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
  const rows = q.data ?? [];
  return (
    <>
      <SampleTemplates count={rows.filter((t) => t.sample).length} onRemoved={invalidate} />
      <div className="mb-4 flex justify-end">
        <button type="button" className="btn-primary" onClick={() => setEditing("new")}>
          <Plus aria-hidden="true" className="h-4 w-4" /> Add Template
        </button>
      </div>
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
