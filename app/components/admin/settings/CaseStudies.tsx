import { Form, Link, useNavigation } from "@remix-run/react";
import { ArrowDown, ArrowUp, ImagePlus, Pencil, Plus, Trash2 } from "lucide-react";
import { MAX_CASE_STUDY_IMAGES } from "#domain/studio-settings";
import { Group, TextArea, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

type CaseStudyFields = Record<
  "id" | "title" | "client" | "industry" | "challenge" | "solution" | "result" | "tags",
  string
> & {
  metrics: { label: string; value: string }[];
  images: { url: string; alt: string }[];
};

type StudyRow = {
  id: string;
  title: string;
  industry: string;
  cover: { url: string; alt: string } | null;
  imageCount: number;
};

/** Settings → Case studies: the list in the site's order, with Move, Edit and Remove. */
export function CaseStudiesList({ studies }: { studies: StudyRow[] }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="grid gap-4">
      {studies.length === 0 ? (
        <div className="rounded-card border border-dashed border-line-strong p-8 text-center">
          <p className="font-display text-2xl">No case studies yet</p>
          <p className="mt-2 text-sm text-ink-muted">/work and the home page show your projects once you add one.</p>
        </div>
      ) : (
        <ol className="grid gap-3" aria-label="Case studies, in the order the site shows them">
          {studies.map((c, i) => (
            <li key={c.id} className="card flex flex-wrap items-center gap-4 p-4">
              {c.cover ? (
                <img src={c.cover.url} alt="" className="h-14 w-20 shrink-0 rounded-field object-cover" />
              ) : (
                <span
                  aria-hidden="true"
                  className="grid h-14 w-20 shrink-0 place-items-center rounded-field bg-paper-sunk text-ink-faint"
                >
                  <ImagePlus className="h-5 w-5" />
                </span>
              )}
              <div className="min-w-0 flex-1 basis-48">
                <p className="truncate font-semibold">{c.title}</p>
                <p className="text-sm text-ink-muted">
                  {c.industry} · {c.imageCount === 1 ? "1 picture" : `${c.imageCount} pictures`}
                </p>
              </div>
              <Form method="post" preventScrollReset className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="section" value="caseStudies" />
                <button
                  type="submit"
                  name="intent"
                  value={`move-up:${c.id}`}
                  disabled={i === 0 || busy}
                  className="btn-ghost h-9 w-9 p-0"
                  aria-label={`Move “${c.title}” up`}
                >
                  <ArrowUp aria-hidden="true" className="h-4 w-4" />
                </button>
                <button
                  type="submit"
                  name="intent"
                  value={`move-down:${c.id}`}
                  disabled={i === studies.length - 1 || busy}
                  className="btn-ghost h-9 w-9 p-0"
                  aria-label={`Move “${c.title}” down`}
                >
                  <ArrowDown aria-hidden="true" className="h-4 w-4" />
                </button>
                <Link
                  to={`/admin/settings?section=caseStudies&edit=${c.id}`}
                  className="btn-ghost px-3 py-1.5"
                  aria-label={`Edit “${c.title}”`}
                >
                  <Pencil aria-hidden="true" className="h-4 w-4" /> Edit
                </Link>
                <button
                  type="submit"
                  name="intent"
                  value={`remove:${c.id}`}
                  disabled={busy}
                  className="btn-ghost px-3 py-1.5 text-danger"
                  aria-label={`Remove “${c.title}”`}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
                </button>
              </Form>
            </li>
          ))}
        </ol>
      )}
      <div>
        <Link to="/admin/settings?section=caseStudies&edit=new" className="btn-dark">
          <Plus aria-hidden="true" className="h-4 w-4" /> Add a case study
        </Link>
      </div>
    </div>
  );
}

/** One case study: its story, metrics and pictures (new ones uploaded with the save). */
export function CaseStudyForm({ values, lastResult }: { values: Values; lastResult: Reply }) {
  const [form, fields] = useSettingsForm<CaseStudyFields>(
    "caseStudies",
    values,
    lastResult,
    `case-${String(values.id || "new")}`,
  );
  const metrics = fields.metrics.getFieldList();
  const images = fields.images.getFieldList();
  const newImagesError = (form.allErrors.newImages ?? [])[0];
  const newAltError = (form.allErrors.newImagesAlt ?? [])[0];
  return (
    <SectionForm form={form} section="caseStudies" multipart>
      <input type="hidden" name={fields.id.name} value={String(fields.id.initialValue ?? "")} />
      <p>
        <Link to="/admin/settings?section=caseStudies" className="link-underline text-sm">
          ← All case studies
        </Link>
      </p>
      <Group title={values.id ? "Edit case study" : "New case study"}>
        <TextInput field={fields.title} label="Title" />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput field={fields.client} label="Client" />
          <TextInput field={fields.industry} label="Industry" />
        </div>
        <TextInput field={fields.tags} label="Tags" hint="Separated by commas, up to 6." />
        <TextArea field={fields.challenge} label="Challenge" rows={4} />
        <TextArea field={fields.solution} label="Solution" rows={4} />
        <TextArea field={fields.result} label="Results" rows={4} />
      </Group>
      <Group title="Metrics" description="Up to three figures shown above the story; leave a row empty to hide it.">
        {metrics.map((m, i) => {
          const f = m.getFieldset();
          return (
            <div key={m.key} className="grid gap-4 sm:grid-cols-2">
              <TextInput field={f.label} label={`Metric ${i + 1} label`} placeholder="Trial sign-ups" />
              <TextInput field={f.value} label={`Metric ${i + 1} value`} placeholder="+42%" />
            </div>
          );
        })}
      </Group>
      <Group
        title="Pictures"
        description={`Up to ${MAX_CASE_STUDY_IMAGES} pictures: PNG, JPEG or WebP, 10 MB each. The first is the cover.`}
      >
        {images.length ? (
          <ul className="grid gap-4 sm:grid-cols-2">
            {images.map((img, i) => {
              const f = img.getFieldset();
              const url = String(f.url.initialValue ?? "");
              return (
                <li key={img.key} className="rounded-field border border-line bg-paper p-3">
                  <input type="hidden" name={f.url.name} value={url} />
                  <img src={url} alt="" className="aspect-[4/3] w-full rounded-field bg-paper-sunk object-cover" />
                  <TextInput field={f.alt} label={`Picture ${i + 1} description (alt text)`} className="mt-3" />
                  <button
                    {...form.remove.getButtonProps({ name: fields.images.name, index: i })}
                    className="btn-ghost mt-3 px-3 py-1.5 text-danger"
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove picture {i + 1}
                  </button>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-sm text-ink-muted">No pictures yet: the site shows generated art until you add one.</p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="newImages" className="field-label">
              Add pictures
            </label>
            <input
              id="newImages"
              name="newImages"
              type="file"
              multiple
              accept="image/png,image/jpeg,image/webp"
              className="block w-full text-sm file:mr-3 file:rounded-full file:border-0 file:bg-ink file:px-4 file:py-2 file:text-sm file:font-semibold file:text-paper"
              aria-invalid={newImagesError ? true : undefined}
              aria-describedby={newImagesError ? "newImages-error" : undefined}
            />
            {newImagesError ? (
              <p id="newImages-error" className="field-error">
                {newImagesError}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor="newImagesAlt" className="field-label">
              Description of the new pictures
            </label>
            <input
              id="newImagesAlt"
              name="newImagesAlt"
              type="text"
              maxLength={200}
              className="field-input"
              aria-invalid={newAltError ? true : undefined}
              aria-describedby={newAltError ? "newImagesAlt-error" : "newImagesAlt-hint"}
            />
            {newAltError ? (
              <p id="newImagesAlt-error" className="field-error">
                {newAltError}
              </p>
            ) : (
              <p id="newImagesAlt-hint" className="mt-1.5 text-sm text-ink-muted">
                For people who cannot see them; you can refine each one after saving.
              </p>
            )}
          </div>
        </div>
      </Group>
    </SectionForm>
  );
}
