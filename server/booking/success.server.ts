import { furthestAllowedStep } from "#domain/booking-state";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { getStudio } from "../studio/studio.server";
import { CALL_COLUMNS, callIcsText, callOfRow, visitorTime } from "./call.server";
import type { Draft } from "./draft.server";

/**
 * Error codes `/booking/success?error=<code>` understands, mapped to the spec's messages
 * (SPEC.md §8). Anything else in `?error=` is ignored: the page never shows text from the URL.
 */
export const SUCCESS_ERRORS = {
  /** The booking row could not be written; the emails were still sent (SPEC.md §8). */
  save_failed:
    "Failed to save booking: something went wrong on our side. Please contact support with your booking details.",
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
export function successPageFor(
  draft: Draft | null,
  errorParam: string | null,
): { show: false } | { show: true; error: string | null } {
  if (!draft) return { show: false };
  if (draft.confirmedAt) return { show: true, error: null };
  const code = isSuccessErrorCode(errorParam) ? errorParam : null;
  if (code === "save_failed" && furthestAllowedStep(draft.state, draft.completed) === 6) {
    return { show: true, error: SUCCESS_ERRORS.save_failed };
  }
  return { show: false };
}

/**
 * What the success page says about the call (decision 014), from what the server knows now:
 * - `scheduled`: its date and time in the visitor's zone (named), the join, reschedule and cancel
 *   links, the .ics download, and which emailed reminders are still to come;
 * - `confirming`: the calendar booked it, its time has not been read yet;
 * - `cancelled` / `rescheduled`: changed in the calendar;
 * - `unknown`: no word from the calendar (confirmed without scheduling, or the message was lost).
 */
export type SuccessCall =
  | {
      state: "scheduled";
      date: string;
      time: string;
      zone: string;
      zoneName: string;
      startAt: string;
      joinUrl: string | null;
      rescheduleUrl: string | null;
      cancelUrl: string | null;
      icsUrl: string;
      reminders: ("24 hours" | "1 hour")[];
    }
  | { state: "confirming" | "cancelled" | "rescheduled" | "unknown" };

/** Where the visitor's call can be downloaded as an .ics (the same check as the page). */
export const SUCCESS_ICS_PATH = "/booking/success.ics";

export async function successCallFor(db: DB, draft: Draft | null): Promise<SuccessCall> {
  if (!draft?.confirmedAt) return { state: "unknown" };
  const row = await db.selectFrom("bookings").select(CALL_COLUMNS).where("id", "=", draft.bookingId).executeTakeFirst();
  if (!row) return { state: "unknown" };
  const call = callOfRow(row);
  if (!call) return { state: row.calendly_invitee_uri ? "confirming" : "unknown" };
  if (call.status !== "scheduled") return { state: call.status };
  const t = visitorTime(call);
  const pending = await db
    .selectFrom("email_outbox")
    .select("kind")
    .where("booking_id", "=", call.bookingId)
    .where("status", "=", "pending")
    .execute();
  const kinds = new Set(pending.map((p) => p.kind));
  return {
    state: "scheduled",
    date: t.date,
    time: t.time,
    zone: t.zone,
    zoneName: t.zoneName,
    startAt: call.startAt,
    joinUrl: call.joinUrl,
    rescheduleUrl: call.rescheduleUrl,
    cancelUrl: call.cancelUrl,
    icsUrl: SUCCESS_ICS_PATH,
    reminders: [
      ...(kinds.has("reminder_24h") ? (["24 hours"] as const) : []),
      ...(kinds.has("reminder_1h") ? (["1 hour"] as const) : []),
    ],
  };
}

/**
 * The visitor's call as an iCalendar text (GET /booking/success.ics), for the visitor whose
 * booking it is (the success page's check: their draft cookie names a saved booking), or the
 * sentence that says why there is none: no saved booking, the call's time not known yet, or the
 * call no longer scheduled.
 */
export async function successCallFile(db: DB, draft: Draft | null): Promise<{ ics: string } | { missing: string }> {
  if (!draft?.confirmedAt)
    return { missing: "There is no calendar file here. The invitation is attached to your confirmation email." };
  const row = await db.selectFrom("bookings").select(CALL_COLUMNS).where("id", "=", draft.bookingId).executeTakeFirst();
  const call = row ? callOfRow(row) : null;
  if (!call)
    return {
      missing:
        "Your call's time is not known to us yet. Calendly's confirmation email has it, with a link to add it to your calendar.",
    };
  if (call.status !== "scheduled")
    return { missing: "This call was cancelled or moved in the calendar, so there is no calendar file for it." };
  const { identity } = await getStudio(db);
  return { ics: callIcsText(call, "PUBLISH", { ...env(), studioName: identity.name }) };
}
