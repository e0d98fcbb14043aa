import { Plus, Trash2 } from "lucide-react";
import { Group, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

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
