import { Group, TextArea, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

/** Settings → Studio: the studio's identity, contact and the "Trusted by" names. */
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
