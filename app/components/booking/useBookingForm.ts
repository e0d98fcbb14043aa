import { useEffect, useRef, useState } from "react";
import { firstErrors, formValues, hasRules, stepErrors, type StepErrors, type StepReply } from "#domain/booking-rules";
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

/** The form state as the fields show it: text as is, a ticked checkbox as "on", numbers as text. */
function asFormValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(asFormValue);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asFormValue(v)]));
  return value;
}

/** What a step shows: every field's latest message, and which fields show theirs. */
type Checked = { reply: StepReply | undefined; errors: StepErrors; shown: ReadonlySet<string> };
const fromReply = (reply: StepReply | undefined): Checked => {
  const errors = firstErrors(reply?.error);
  return { reply, errors, shown: new Set(Object.keys(errors)) };
};

/** The form's own values as the rules and browser storage read them (files excluded). */
const valuesOf = (form: HTMLFormElement) => formValues(new FormData(form));

/** Focus the first field, in the form's order, that has a message. */
function focusFirstInvalid(form: HTMLFormElement, errors: StepErrors) {
  for (const el of Array.from(form.elements)) {
    const name = (el as HTMLInputElement).name;
    if (name && errors[name] && el instanceof HTMLElement) {
      el.focus();
      return;
    }
  }
}

/**
 * A step's form, checked in the browser by the step's rules (booking-rules.ts, the functions the
 * server runs too; decision 029). The server's answer (`reply`) shows its messages and what was
 * typed, without JavaScript too. With JavaScript a filled field is checked when it loses focus, a
 * field's message clears as soon as it is edited (SPEC.md §5), and Next checks the whole step
 * before posting: every message at once, the first invalid field focused. Form state is saved to
 * browser storage after every change (files excluded) and restored into empty fields on load.
 */
export function useBookingForm(step: number, reply: StepReply | undefined, defaultValue: BookingFormState) {
  const id = `booking-step-${step}`;
  const ruled = hasRules(step);
  const [checked, setChecked] = useState(() => fromReply(reply));
  // A new answer of the server (a post refused with JavaScript) replaces what the step showed.
  let current = checked;
  if (checked.reply !== reply) {
    current = fromReply(reply);
    setChecked(current);
  }
  const errors: Record<string, string | undefined> = {};
  for (const name of current.shown) errors[name] = current.errors[name];

  // What the fields start with: what was posted when the server answers a post, else the draft.
  const [values] = useState(() => (reply?.initialValue ?? asFormValue(defaultValue) ?? {}) as Record<string, unknown>);

  const mounted = useRef(false);
  useEffect(() => {
    const form = document.forms.namedItem(id);
    if (mounted.current && form && reply?.status === "error") focusFirstInvalid(form, firstErrors(reply.error));
    mounted.current = true;
  }, [reply, id]);

  function save(form: HTMLFormElement) {
    if (step > 4) return;
    try {
      window.localStorage.setItem(FORM_STORAGE_KEY, JSON.stringify({ ...readSavedForm(), ...valuesOf(form) }));
    } catch {
      /* storage full or unavailable */
    }
  }

  useEffect(() => {
    const el = document.forms.namedItem(id);
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
    save(el);
    // Once per step's form: restored, then kept.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  /** The step's rules run on the whole form; `show` adds fields whose messages now show. */
  function check(form: HTMLFormElement, show: Iterable<string>): StepErrors {
    const all = stepErrors(step, valuesOf(form));
    setChecked((c) => ({ ...c, errors: all, shown: new Set([...c.shown, ...show]) }));
    return all;
  }

  const formProps = {
    id,
    noValidate: true,
    // The form's own message (a refusal not about one field) describes the form.
    "aria-describedby": errors.form ? `${id}-error` : undefined,
    onInput(e: React.FormEvent<HTMLFormElement>) {
      save(e.currentTarget);
      const name = (e.target as HTMLInputElement).name;
      const edited = (name === "isNewSite" ? [name, "websiteUrl"] : [name]).filter((n) => errors[n]);
      if (edited.length) setChecked((c) => ({ ...c, shown: new Set([...c.shown].filter((n) => !edited.includes(n))) }));
    },
    onBlur(e: React.FocusEvent<HTMLFormElement>) {
      const target = e.target as unknown as HTMLInputElement;
      if (ruled && target.name && target.name !== "intent" && target.value) check(e.currentTarget, [target.name]);
    },
    onSubmit(e: React.FormEvent<HTMLFormElement>) {
      // Back, Update total and the steppers post what was typed without checking the step.
      const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      if (!ruled || (submitter?.name === "intent" && submitter.value !== "next")) return;
      const form = e.currentTarget;
      const all = check(form, [...new Set(Array.from(form.elements, (el) => (el as HTMLInputElement).name))]);
      if (Object.keys(all).length) {
        e.preventDefault();
        focusFirstInvalid(form, all);
      }
    },
  };

  return { values, errors, formProps };
}
