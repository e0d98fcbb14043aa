import { Plus, Trash2 } from "lucide-react";
import { Group, TextArea, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

type TestimonialFields = { items: { id: string; quote: string; name: string; role: string }[] };

/** Settings → Testimonials: the quotes the home page shows. */
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
