import { getFormProps, useForm, type DefaultValue, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { parseSection, type SettingsSection } from "#domain/studio-settings";

/** What the Settings action answered the last post with (conform's reply). */
export type Reply = SubmissionResult<string[]> | undefined;
/** A section's saved content, in its form's shape. */
export type Values = Record<string, unknown>;

/** One section's form through conform: the section's schema checks it in the browser as on the server. */
export function useSettingsForm<V extends Record<string, unknown>>(
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
  // Its own post only (a save, or Enter in a field): not "Clear sample", nor the other small forms of a section.
  const intent = navigation.formData?.get("intent");
  const busy = navigation.state === "submitting" && (intent === null || intent === undefined || intent === "save");
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

/** A section's form: posts to the Settings action with its section, then the Save bar. */
export function SectionForm({
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
