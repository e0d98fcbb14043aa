import { Group, TextArea } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

/** Settings → Legal: the Terms of Service and the Privacy Policy. */
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
