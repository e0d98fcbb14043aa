import { furthestAllowedStep } from "~/lib/booking-state";
import type { Draft } from "./draft.server";

/**
 * Error codes `/booking/success?error=<code>` understands, mapped to the spec's messages
 * (SPEC.md §8). Anything else in `?error=` is ignored: the page never shows text from the URL.
 */
export const SUCCESS_ERRORS = {
  /** The booking row could not be written; the emails were still sent (SPEC.md §8). */
  save_failed: "Failed to save booking: something went wrong on our side. Please contact support with your booking details.",
} as const;

export type SuccessErrorCode = keyof typeof SUCCESS_ERRORS;

function isSuccessErrorCode(code: string | null): code is SuccessErrorCode {
  return code !== null && Object.prototype.hasOwnProperty.call(SUCCESS_ERRORS, code);
}

/**
 * Who may see `/booking/success` (docs/decisions/007-booking-success-page.md):
 * - a visitor whose draft was confirmed (their booking is saved): the page, without error;
 * - a visitor whose save failed (`error=save_failed`) and whose draft is complete, i.e. the
 *   confirm went through every check and only the write failed: the page with the spec's message;
 * - anyone else: no page (the loader redirects to /booking).
 * Reads only: a GET of the page never writes.
 */
export function successPageFor(draft: Draft | null, errorParam: string | null): { show: false } | { show: true; error: string | null } {
  if (!draft) return { show: false };
  if (draft.confirmedAt) return { show: true, error: null };
  const code = isSuccessErrorCode(errorParam) ? errorParam : null;
  if (code === "save_failed" && furthestAllowedStep(draft.state, draft.completed) === 6) {
    return { show: true, error: SUCCESS_ERRORS.save_failed };
  }
  return { show: false };
}
