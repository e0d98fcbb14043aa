import { getFormProps, useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { ArrowDown, ArrowUp, ImagePlus, Pencil, Plus, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { MAX_CASE_STUDY_IMAGES, parseSection, type SettingsSection } from "#domain/studio-settings";
import { Checkbox, Group, Select, TextArea, TextInput } from "./fields";

type Reply = SubmissionResult<string[]> | undefined;
type Values = Record<string, unknown>;

/** The forms' fields as they are typed (strings; "on" for a ticked box). */
type AddOnFields = {
  id: string;
  name: string;
  description: string;
  price: string;
  allowMultiple: string;
  maxQuantity: string;
};
type PackagesFields = {
  tiers: (Record<"id" | "name" | "basePrice" | "priceLabel" | "timeline" | "description", string> &
    Record<"recommended" | "offered" | "included" | "notIncluded" | "cta" | "depositPercent", string> & {
      addOns: AddOnFields[];
    })[];
};
type TestimonialFields = { items: { id: string; quote: string; name: string; role: string }[] };
type CaseStudyFields = Record<
  "id" | "title" | "client" | "industry" | "challenge" | "solution" | "result" | "tags",
  string
> & {
  metrics: { label: string; value: string }[];
  images: { url: string; alt: string }[];
};

/** One section's form through conform: the section's schema checks it in the browser as on the server. */
function useSettingsForm<V extends Record<string, unknown>>(
  section: SettingsSection,
  defaultValue: Values,
  lastResult: Reply,
  id: string = section,
) {
  return useForm<V>({
    id: `settings-${id}`,
    lastResult,
    defaultValue: defaultValue as DefaultValue<V>,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSection(formData, section),
  });
}

/** The form's Save button (busy while its post is on its way) and the form-level message. */
function SaveBar({ label = "Save changes", formErrors }: { label?: string; formErrors?: string[] }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") !== "clear-sample";
  return (
    <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center justify-end gap-3 border-t border-line bg-paper/95 px-1 py-4 backdrop-blur">
      {formErrors?.length ? (
        <p className="mr-auto text-sm font-medium text-danger" role="alert">
          {formErrors[0]}
        </p>
      ) : null}
      <button type="submit" name="intent" value="save" className="btn-primary px-6" disabled={busy} aria-busy={busy}>
        {busy ? "Saving…" : label}
      </button>
    </div>
  );
}

function SectionForm({
  form,
  section,
  children,
  multipart,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: ReturnType<typeof useSettingsForm<any>>[0];
  section: SettingsSection;
  children: ReactNode;
  multipart?: boolean;
}) {
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      encType={multipart ? "multipart/form-data" : undefined}
      className="grid gap-6"
      preventScrollReset
    >
      <input type="hidden" name="section" value={section} />
      {children}
      <SaveBar formErrors={form.errors} />
    </Form>
  );
}

// ---------- Studio ----------

export function StudioForm({
  values,
  lastResult,
  calendarDefault,
}: {
  values: Values;
  lastResult: Reply;
  calendarDefault: string;
}) {
  const [form, fields] = useSettingsForm<Record<string, string>>("studio", values, lastResult);
  return (
    <SectionForm form={form} section="studio">
      <Group
        title="Identity"
        description="The studio's name is the wordmark in the header, the footer and every email."
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput field={fields.name} label="Studio name" className="sm:col-span-2" />
          <TextInput field={fields.designer} label="Designer name" hint="Shown in “Hi, I'm …” on the home page." />
          <TextInput field={fields.role} label="Role" hint="For example: Independent designer & developer." />
        </div>
        <TextArea field={fields.bio} label="Bio" rows={6} hint="Separate paragraphs with a blank line." />
        <TextInput
          field={fields.footerLine}
          label="Footer line"
          hint="One or two sentences under the logo in the footer."
        />
      </Group>
      <Group title="Contact">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput
            field={fields.contactEmail}
            label="Public contact email"
            type="email"
            inputMode="email"
            hint="Shown on the home page, in the footer, in every email and on the legal pages."
            className="sm:col-span-2"
          />
          <TextInput field={fields.socialUrl} label="Social link" type="url" inputMode="url" placeholder="https://" />
          <TextInput field={fields.socialLabel} label="Social link label" placeholder="LinkedIn" />
        </div>
        <TextInput
          field={fields.calendarUrl}
          label="Calendar link"
          type="url"
          inputMode="url"
          placeholder={calendarDefault}
          hint={`The scheduling page embedded at the end of a booking. Empty: ${calendarDefault}`}
        />
      </Group>
      <Group title="Trusted by">
        <TextArea
          field={fields.trustedBy}
          label="Client names"
          rows={5}
          hint="One name per line; empty hides the row."
        />
      </Group>
    </SectionForm>
  );
}

// ---------- Packages ----------

// duplicates: every section form opens alike (useSettingsForm, then SectionForm, both shared above); its fields differ
export function PackagesForm({ values, lastResult }: { values: Values; lastResult: Reply }) {
  const [form, fields] = useSettingsForm<PackagesFields>("packages", values, lastResult);
  const tiers = fields.tiers.getFieldList();
  return (
    <SectionForm form={form} section="packages">
      {fields.tiers.errors?.length ? (
        <p className="field-error" role="alert" id={fields.tiers.errorId}>
          {fields.tiers.errors[0]}
        </p>
      ) : null}
      {tiers.map((tier) => {
        const t = tier.getFieldset();
        const addOns = t.addOns.getFieldList();
        const id = String(t.id.initialValue ?? "");
        return (
          <Group key={tier.key} title={`${String(t.name.initialValue || id)} package`}>
            <input type="hidden" name={t.id.name} value={id} />
            <div className="grid gap-x-5 gap-y-4 sm:grid-cols-2">
              <Checkbox field={t.offered} label="Offered" hint="Shown on the site and in the booking." />
              <Checkbox field={t.recommended} label="Recommended" hint="Marked “Most Popular”." />
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <TextInput field={t.name} label="Name" />
              <TextInput field={t.timeline} label="Timeline" placeholder="2-3 weeks" />
              <TextInput field={t.basePrice} label="Price" prefix="$" inputMode="numeric" hint="Whole dollars." />
              <TextInput
                field={t.priceLabel}
                label="Price label (optional)"
                hint={id === "custom" ? "Shown instead of the price, e.g. $15k-25k+." : "Shown instead of the price."}
              />
              <TextInput field={t.depositPercent} label="Deposit (%)" inputMode="numeric" />
              <TextInput field={t.cta} label="Button text" />
            </div>
            <TextArea field={t.description} label="Description" rows={3} />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextArea field={t.included} label="Included" rows={6} hint="One item per line." />
              <TextArea field={t.notIncluded} label="Not included" rows={6} hint="One item per line." />
            </div>
            <div>
              <h3 className="font-sans text-sm font-semibold text-ink">Add-ons</h3>
              {id === "custom" ? (
                <p className="mt-1 text-sm text-ink-muted">Shown on the packages page; quoted after the call.</p>
              ) : null}
              {addOns.length === 0 ? <p className="mt-2 text-sm text-ink-muted">No add-ons yet.</p> : null}
              <ul className="mt-3 grid gap-4">
                {addOns.map((addOn, j) => {
                  const a = addOn.getFieldset();
                  return (
                    <li key={addOn.key} className="rounded-field border border-line bg-paper p-4">
                      <input type="hidden" name={a.id.name} value={String(a.id.initialValue ?? "")} />
                      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
                        <TextInput field={a.name} label="Add-on name" />
                        <TextInput field={a.price} label="Price" prefix="$" inputMode="numeric" />
                      </div>
                      <TextInput field={a.description} label="Description" className="mt-4" />
                      <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
                        <div className="flex flex-wrap items-end gap-5">
                          <Checkbox field={a.allowMultiple} label="Several allowed" />
                          <TextInput field={a.maxQuantity} label="Maximum" inputMode="numeric" className="w-28" />
                        </div>
                        <button
                          {...form.remove.getButtonProps({ name: t.addOns.name, index: j })}
                          className="btn-ghost px-3 py-1.5 text-danger"
                          aria-label={`Remove ${String(a.name.initialValue || "this add-on")} from ${String(t.name.initialValue)}`}
                        >
                          <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
                        </button>
                      </div>
                    </li>
                  );
                })}
              </ul>
              <button
                {...form.insert.getButtonProps({
                  name: t.addOns.name,
                  defaultValue: { id: "", name: "", description: "", price: "", allowMultiple: "", maxQuantity: "1" },
                })}
                className="btn-ghost mt-4"
                aria-label={`Add an add-on to the ${String(t.name.initialValue || id)} package`}
              >
                <Plus aria-hidden="true" className="h-4 w-4" /> Add an add-on
              </button>
            </div>
          </Group>
        );
      })}
    </SectionForm>
  );
}

// ---------- Promotion ----------

export function PromotionForm({
  values,
  lastResult,
  packageNames,
}: {
  values: Values;
  lastResult: Reply;
  packageNames: { id: string; name: string }[];
}) {
  const [form, fields] = useSettingsForm<Record<string, string>>("promotion", values, lastResult);
  return (
    <SectionForm form={form} section="promotion">
      <Group title="Offer">
        <Checkbox
          field={fields.enabled}
          label="Promotion on"
          hint="Shows the banner on the home page and the offer on its package."
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <TextInput field={fields.discountPercent} label="Discount (%)" inputMode="numeric" />
          <Select
            field={fields.packageId}
            label="Package"
            options={packageNames.map((p) => ({ value: p.id, label: p.name }))}
          />
          <TextInput field={fields.name} label="Internal name" />
        </div>
      </Group>
      <Group
        title="Texts"
        description="Write {percent} where the discount goes and {package} for the package's name: the percent is set once, above."
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput field={fields.badge} label="Badge" placeholder="{percent}% OFF" />
          <TextInput field={fields.title} label="Title" />
        </div>
        <TextArea field={fields.description} label="Description" rows={2} />
        <TextInput field={fields.requirement} label="Requirement" />
        <TextInput field={fields.ctaText} label="Call to action" />
      </Group>
    </SectionForm>
  );
}

// ---------- Testimonials ----------

export function TestimonialsForm({ values, lastResult }: { values: Values; lastResult: Reply }) {
  const [form, fields] = useSettingsForm<TestimonialFields>("testimonials", values, lastResult);
  const items = fields.items.getFieldList();
  return (
    <SectionForm form={form} section="testimonials">
      {items.length === 0 ? (
        <div className="rounded-card border border-dashed border-line-strong p-8 text-center">
          <p className="font-display text-2xl">No testimonials yet</p>
          <p className="mt-2 text-sm text-ink-muted">
            The home page shows a “What clients say” section once you add one.
          </p>
        </div>
      ) : null}
      <ul className="grid gap-4">
        {items.map((item, i) => {
          const t = item.getFieldset();
          return (
            <li key={item.key}>
              <Group title={`Testimonial ${i + 1}`}>
                <input type="hidden" name={t.id.name} value={String(t.id.initialValue ?? "")} />
                <TextArea field={t.quote} label="Quote" rows={3} />
                <div className="grid gap-5 sm:grid-cols-2">
                  <TextInput field={t.name} label="Name" />
                  <TextInput field={t.role} label="Role or company" />
                </div>
                <div>
                  {/* duplicates: a row's remove button; each list's (add-ons, pictures) has its own label and place */}
                  <button
                    {...form.remove.getButtonProps({ name: fields.items.name, index: i })}
                    className="btn-ghost px-3 py-1.5 text-danger"
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove testimonial {i + 1}
                  </button>
                </div>
              </Group>
            </li>
          );
        })}
      </ul>
      {fields.items.errors?.length ? <p className="field-error">{fields.items.errors[0]}</p> : null}
      <div>
        <button
          {...form.insert.getButtonProps({
            name: fields.items.name,
            defaultValue: { id: "", quote: "", name: "", role: "" },
          })}
          className="btn-ghost"
        >
          <Plus aria-hidden="true" className="h-4 w-4" /> Add a testimonial
        </button>
      </div>
    </SectionForm>
  );
}

// ---------- Legal ----------

export function LegalForm({ values, lastResult }: { values: Values; lastResult: Reply }) {
  const [form, fields] = useSettingsForm<Record<string, string>>("legal", values, lastResult);
  const hint =
    "Separate paragraphs with a blank line; start a line with “## ” for a heading. {studio}, {designer} and {email} are filled in.";
  return (
    <SectionForm form={form} section="legal">
      <Group title="Terms of Service">
        <TextArea field={fields.terms} label="Terms of Service text" rows={18} hint={hint} />
      </Group>
      <Group title="Privacy Policy">
        <TextArea field={fields.privacy} label="Privacy Policy text" rows={18} hint={hint} />
      </Group>
      <p className="text-sm text-ink-muted">“Last updated” on both pages becomes the date of this save.</p>
    </SectionForm>
  );
}

// ---------- Case studies ----------

type StudyRow = {
  id: string;
  title: string;
  industry: string;
  cover: { url: string; alt: string } | null;
  imageCount: number;
};

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

// ---------- Payments ----------

type PaymentsFields = { stages: { label: string; percent: string; description: string }[]; dueBusinessDays: string };

/** The default plan of new bookings: the stages (adding up to 100%) and the days an invoice is due in. */
export function PaymentsForm({ values, lastResult }: { values: Values; lastResult: Reply }) {
  const [form, fields] = useSettingsForm<PaymentsFields>("payments", values, lastResult);
  const stages = fields.stages.getFieldList();
  return (
    <SectionForm form={form} section="payments">
      <Group
        title="Payment stages"
        description="Every new booking's plan starts with these stages, each a percent of its total; the last stage takes any rounding. Bookings already made keep their own plan, which you change on the booking."
      >
        <ol className="grid gap-4">
          {stages.map((stage, i) => {
            const s = stage.getFieldset();
            return (
              <li key={stage.key} className="grid gap-4 rounded-field border border-line p-4 sm:grid-cols-[1fr_8rem]">
                <TextInput field={s.label} label={`Stage ${i + 1} name`} maxLength={60} />
                <TextInput field={s.percent} label="Percent" inputMode="numeric" />
                <div className="sm:col-span-2">
                  <TextInput field={s.description} label="When it is due (shown on the packages page)" />
                </div>
                {stages.length > 1 ? (
                  <div className="sm:col-span-2">
                    <button
                      {...form.remove.getButtonProps({ name: fields.stages.name, index: i })}
                      className="btn-ghost px-3 py-1.5 text-danger"
                    >
                      <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove stage {i + 1}
                    </button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ol>
        {fields.stages.errors?.length ? (
          <p className="field-error" role="alert">
            {fields.stages.errors[0]}
          </p>
        ) : null}
        <div>
          <button
            {...form.insert.getButtonProps({
              name: fields.stages.name,
              defaultValue: { label: "", percent: "", description: "" },
            })}
            className="btn-ghost"
          >
            <Plus aria-hidden="true" className="h-4 w-4" /> Add a stage
          </button>
        </div>
      </Group>
      {/* duplicates: a labelled field with its hint, as every Settings field is; only the words differ */}
      <Group title="Terms">
        <div className="max-w-xs">
          <TextInput
            field={fields.dueBusinessDays}
            label="Invoices due within (business days)"
            inputMode="numeric"
            hint="A requested payment is due this many business days later; reminders go out on that day and two days after."
          />
        </div>
      </Group>
    </SectionForm>
  );
}
