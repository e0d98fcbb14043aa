import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useEffect, useMemo } from "react";
import { firstErrors, parseStep, stepSchema } from "#domain/booking-schema";
import type { BookingFormState } from "#domain/booking-state";

export const FORM_STORAGE_KEY = "bookingFormState";

export function readSavedForm(): Record<string, unknown> {
  try {
    const raw = window.localStorage.getItem(FORM_STORAGE_KEY);
    if (!raw) return {};
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    console.warn("[booking] ignoring corrupt saved form state");
  } catch {
    console.warn("[booking] ignoring corrupt saved form state");
  }
  return {};
}

export function clearSavedForm() {
  try {
    window.localStorage.removeItem(FORM_STORAGE_KEY);
  } catch {
    /* storage unavailable */
  }
}

/**
 * A step's form through conform: the step's schema validates in the browser as on the server, the
 * server's reply (`lastResult`) shows its messages and what was typed, without JavaScript too.
 * With JavaScript a filled field is checked when it loses focus, a field's message clears as soon
 * as it is edited (SPEC.md §5), and Next checks the whole step before posting. Form state is saved
 * to browser storage after every change (files excluded) and restored into empty fields on load.
 */
export function useBookingForm(
  step: number,
  lastResult: SubmissionResult<string[]> | undefined,
  defaultValue: BookingFormState,
) {
  const schema = useMemo(() => stepSchema(step), [step]);
  const [form] = useForm<BookingFormState>({
    id: `booking-step-${step}`,
    lastResult,
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
    onValidate: schema ? ({ formData }) => parseStep(formData, schema, { intents: true }) : undefined,
  });
  const errors: Record<string, string | undefined> = firstErrors(form.allErrors);

  useEffect(() => {
    const el = document.forms.namedItem(form.id);
    if (!el) return;
    const saved = readSavedForm();
    for (const field of Array.from(el.elements)) {
      if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) continue;
      const v = saved[field.name];
      if (field.type === "file" || field.type === "hidden" || v === undefined) continue;
      if (field instanceof HTMLInputElement && (field.type === "radio" || field.type === "checkbox")) continue;
      if (!field.value && typeof v === "string") field.value = v;
    }
    for (const radio of Array.from(el.querySelectorAll<HTMLInputElement>('input[type="radio"]'))) {
      if (!el.querySelector(`input[name="${radio.name}"]:checked`) && saved[radio.name] === radio.value)
        radio.checked = true;
    }
  }, [form.id]);

  // Conform follows the form's value as it is edited; every change is kept in browser storage.
  const value = form.value;
  useEffect(() => {
    if (!value || step > 4) return;
    try {
      window.localStorage.setItem(FORM_STORAGE_KEY, JSON.stringify({ ...readSavedForm(), ...value }));
    } catch {
      /* storage full or unavailable */
    }
  }, [value, step]);

  const formProps = {
    ...getFormProps(form),
    onInput(e: React.FormEvent<HTMLFormElement>) {
      const name = (e.target as HTMLInputElement).name;
      for (const edited of name === "isNewSite" ? [name, "websiteUrl"] : [name])
        if (errors[edited]) form.update({ name: edited, validated: false });
    },
    onBlur(e: React.FocusEvent<HTMLFormElement>) {
      const target = e.target as unknown as HTMLInputElement;
      if (target.name && target.name !== "intent" && target.value && schema) form.validate({ name: target.name });
    },
    onSubmit(e: React.FormEvent<HTMLFormElement>) {
      // Back, Update total and the steppers post what was typed without checking the step.
      const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      if (submitter?.name === "intent" && submitter.value !== "next") return;
      form.onSubmit(e);
    },
  };

  const values: Record<string, unknown> = form.initialValue ?? {};
  return { form, values, errors, formProps };
}
