import { z } from "zod";
import { formatInteger } from "./numbers";

/**
 * The text fields of the console's forms, read the same way by every form's schema (Settings,
 * setup, proposals): a string trimmed, anything missing as "".
 */
export const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : (v ?? ""));

/** Text, trimmed, at most `max` characters; with `required`, that message when empty. */
export function text(max: number, required?: string) {
  const base = z.string().max(max, `Please keep this under ${formatInteger(max)} characters`);
  return z.preprocess(trimmed, required ? base.min(1, required) : base);
}
