import { useEffect, useRef, useState } from "react";
import type { ZodTypeAny } from "zod";
import { fieldErrors, step1Schema, step2Schema, step3Schema, step4Schema } from "~/lib/booking-schema";

export const FORM_STORAGE_KEY = "bookingFormState";

function schemaFor(step: number): ZodTypeAny | null {
  if (step === 1) return step1Schema;
  if (step === 2) return step2Schema;
  if (step === 3) return step3Schema;
  if (step === 4) return step4Schema();
  return null;
}

/** The values of a step's form as the schemas expect them. */
function formValues(form: HTMLFormElement): Record<string, unknown> {
  const fd = new FormData(form);
  const out: Record<string, unknown> = {};
  const quantities: Record<string, string> = {};
  for (const [k, v] of fd.entries()) {
    if (typeof v !== "string") continue;
    if (k.startsWith("addOnQuantities.")) quantities[k.slice(16)] = v;
    else if (k === "selectedAddOns") out[k] = [...((out[k] as string[]) ?? []), v];
    else out[k] = v;
  }
  out.addOnQuantities = quantities;
  return out;
}

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
 * With JavaScript: instant validation with the step's schema (errors clear as a field is
 * edited), form state saved to browser storage after every change (files excluded) and
 * restored into empty fields on load.
 */
export function useBookingEnhancements(step: number, serverErrors: Record<string, string | undefined>) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState(serverErrors);
  const touched = useRef(new Set<string>());

  const serverKey = JSON.stringify(serverErrors);
  useEffect(() => setErrors(JSON.parse(serverKey) as Record<string, string | undefined>), [serverKey]);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const saved = readSavedForm();
    for (const el of Array.from(form.elements)) {
      if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) continue;
      const v = saved[el.name];
      if (el.type === "file" || el.type === "hidden" || v === undefined) continue;
      if (el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox")) continue;
      if (!el.value && typeof v === "string") el.value = v;
    }
    for (const el of Array.from(form.querySelectorAll<HTMLInputElement>('input[type="radio"]'))) {
      if (!form.querySelector(`input[name="${el.name}"]:checked`) && saved[el.name] === el.value) el.checked = true;
    }
  }, [step]);

  function save() {
    const form = formRef.current;
    if (!form) return;
    const values = formValues(form);
    delete values.intent;
    try {
      window.localStorage.setItem(FORM_STORAGE_KEY, JSON.stringify({ ...readSavedForm(), ...values }));
    } catch {
      /* storage full or unavailable */
    }
  }

  function validate(only?: string): Record<string, string> {
    const form = formRef.current;
    const schema = schemaFor(step);
    if (!form || !schema) return {};
    const r = schema.safeParse(formValues(form));
    const all = r.success ? {} : fieldErrors(r.error);
    if (!only) return all;
    return all[only] ? { [only]: all[only] } : {};
  }

  const handlers = {
    onInput(e: React.FormEvent<HTMLFormElement>) {
      const name = (e.target as HTMLInputElement).name;
      if (name)
        setErrors((prev) => ({
          ...prev,
          [name]: undefined,
          ...(name === "isNewSite" ? { websiteUrl: undefined } : {}),
        }));
      save();
    },
    onChange() {
      save();
    },
    onBlur(e: React.FocusEvent<HTMLFormElement>) {
      const target = e.target as unknown as HTMLInputElement;
      const name = target.name;
      if (!name || name === "intent") return;
      touched.current.add(name);
      const v = target.value;
      if (!v) return;
      const found = validate(name);
      if (found[name]) setErrors((prev) => ({ ...prev, ...found }));
    },
    onSubmit(e: React.FormEvent<HTMLFormElement>) {
      const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      if (submitter?.value !== "next") return;
      const found = validate();
      if (Object.keys(found).length) {
        e.preventDefault();
        setErrors(found);
        const first = formRef.current?.querySelector<HTMLElement>(`[name="${Object.keys(found)[0]}"]`);
        first?.focus();
      }
    },
  };

  return { formRef, errors, handlers };
}
