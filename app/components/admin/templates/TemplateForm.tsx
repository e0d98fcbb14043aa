import { getFormProps } from "@conform-to/react";
import { useState } from "react";
import { ModalActions } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { CATEGORIES, CATEGORY_META } from "#domain/categories";
import { templateFormSchema, type TemplateFormInput } from "#domain/template-form";
import { trpc } from "~/trpc/react";
import { Select, TextArea, TextInput } from "../form/fields";
import { useConsoleForm } from "../form/use-console-form";
import type { AdminTemplate } from "../types";
import { ArchiveUpload, RemoveArchive, StoredImages, useTemplateFiles } from "./TemplateFiles";

/** The form's fields, in the words the owner types them (dollars, lines, commas). */
const FIELDS = [
  "name",
  "slug",
  "tagline",
  "description",
  "category",
  "price",
  "originalPrice",
  "features",
  "included",
  "techStack",
  "tags",
  "images",
  "fileUrl",
] as const;

function toForm(t?: AdminTemplate): Record<(typeof FIELDS)[number], string> {
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

/** What was typed, as the procedure's input (the server reads it with the same schema). */
const templateInput = (typed: Record<string, string>) =>
  Object.fromEntries(FIELDS.map((k) => [k, typed[k] ?? ""])) as TemplateFormInput;

const optional = <span className="font-normal text-ink-muted">(optional)</span>;
const hint = (text: string) => <span className="font-normal text-ink-muted">({text})</span>;

/**
 * Add or edit a template (SPEC.md §5), through conform with the server's `templateFormSchema`:
 * each field's message under it as the owner goes, then the save through tRPC. What uploads,
 * removals and the server refuse is said once above the form.
 */
export function TemplateForm({ template, onDone }: { template?: AdminTemplate; onDone: () => void }) {
  const utils = trpc.useUtils();
  const toast = useToast();
  const [message, setMessage] = useState<string | null>(null);
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
    onError: (e) => setMessage(`Error saving template: ${e.message}`),
  });
  const update = trpc.admin.templates.update.useMutation({
    onSuccess: done,
    onError: (e) => setMessage(`Error updating template: ${e.message}`),
  });
  const [form, fields] = useConsoleForm({
    id: template ? `template-${template.id}` : "template-new",
    schema: templateFormSchema,
    defaultValue: toForm(template),
    onValid: (typed) => {
      const data = templateInput(typed);
      if (template) update.mutate({ id: template.id, data });
      else create.mutate(data);
    },
  });
  const name = String(fields.name.value ?? "");
  const files = useTemplateFiles({
    formId: form.id,
    templateId: template?.id,
    slug: String(fields.slug.value ?? "") || name.toLowerCase().trim().replace(/\s+/g, "-"),
    set: (field, value) => form.update({ name: fields[field].name, value }),
    onError: setMessage,
  });
  const saving = create.isPending || update.isPending;

  return (
    <form
      {...getFormProps(form)}
      onSubmit={(e) => {
        setMessage(null);
        form.onSubmit(e);
      }}
      className="grid gap-4 sm:grid-cols-2"
    >
      {message ? (
        <p
          role="alert"
          className="rounded-field border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger sm:col-span-2"
        >
          {message}
        </p>
      ) : null}
      <TextInput field={fields.name} label="Name" required />
      <TextInput field={fields.slug} label={<>Slug {optional}</>} placeholder="generated from the name" />
      <TextInput field={fields.tagline} label="Tagline" required className="sm:col-span-2" />
      <TextArea field={fields.description} label="Description" rows={3} required className="sm:col-span-2" />
      <Select
        field={fields.category}
        label="Category"
        required
        options={CATEGORIES.map((c) => ({ value: c, label: CATEGORY_META[c].label }))}
      />
      <div className="grid grid-cols-2 gap-3">
        <TextInput field={fields.price} label="Price ($)" type="number" min="0" step="0.01" required />
        <TextInput field={fields.originalPrice} label="Original Price ($)" type="number" min="0" step="0.01" />
      </div>
      <TextArea field={fields.features} label={<>Features {hint("one per line")}</>} rows={4} required />
      <TextArea field={fields.included} label={<>What&apos;s Included {hint("one per line")}</>} rows={4} required />
      <TextInput field={fields.techStack} label={<>Tech stack {hint("comma separated")}</>} />
      <TextInput field={fields.tags} label={<>Tags {hint("comma separated")}</>} />
      <div className="sm:col-span-2">
        <TextArea
          field={fields.images}
          label={<>Images {hint("one URL per line, first is the main preview")}</>}
          rows={3}
        />
        <StoredImages images={String(fields.images.value ?? "")} files={files} />
      </div>
      <div className="sm:col-span-2">
        <div className="flex items-end gap-3">
          <TextInput
            field={fields.fileUrl}
            label="Template file"
            placeholder="uploaded .zip or .rar"
            className="min-w-0 flex-1"
          />
          <RemoveArchive fileUrl={String(fields.fileUrl.value ?? "")} files={files} />
        </div>
        <ArchiveUpload files={files} />
      </div>
      <ModalActions onCancel={onDone} className="sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={saving || files.busy}>
          {saving ? "Saving..." : template ? "Save changes" : "Add Template"}
        </button>
      </ModalActions>
    </form>
  );
}
