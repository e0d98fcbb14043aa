import { SlotUnavailable } from "../calendar/calls.server";
import { openSlots } from "../calendar/calls.server";
import { callChangeMails } from "../booking/call-change-mails.server";
import { CallLocked, cancelCall, moveCall } from "../booking/call-changes.server";
import { pickerDays, type PickerDay } from "../booking/call-picker.server";
import { CALL_COLUMNS, callOfRow } from "../booking/call.server";
import { deliverBookingEmails } from "../booking/emails.server";
import type { DB } from "../db/db.server";
import type { Env } from "../env.server";
import { DomainError } from "../errors";
import { getStudio } from "../studio/studio.server";

/**
 * The owner moves or cancels a built-in call from the console (issue 43.7): at any time before it
 * starts (the clients' cut-off is theirs), to a free time of the studio's calendar, with the same
 * checks, updated invitation and messages as the client's own page; the times are listed in the
 * studio's zone, every day of the booking window.
 */

async function builtinCall(db: DB, bookingId: string) {
  const row = await db.selectFrom("bookings").select(CALL_COLUMNS).where("id", "=", bookingId).executeTakeFirst();
  const call = row ? callOfRow(row) : null;
  if (!call) throw new DomainError("not-found", "This booking has no call.");
  if (call.provider !== "builtin")
    throw new DomainError("conflict", "This call was booked through Calendly: change it in Calendly.");
  return call;
}

/** The free times the booking's call can move to, by day in the studio's zone (its own time left out). */
export async function callTimes(db: DB, bookingId: string, now = Date.now()): Promise<PickerDay[]> {
  const call = await builtinCall(db, bookingId);
  const { calendar } = await getStudio(db);
  const current = Date.parse(call.startAt);
  const slots = (await openSlots(db, calendar.availability, now, { except: bookingId })).filter(
    (s) => s.start !== current,
  );
  return pickerDays(slots, calendar.availability.timeZone, null, 400).days;
}

/** A CallLocked or SlotUnavailable in the console's words (a domain error the adapter maps). */
function asDomainError(error: unknown): never {
  if (error instanceof SlotUnavailable)
    throw new DomainError(
      "conflict",
      error.reason === "taken" ? "That time was just taken: pick another." : error.message,
    );
  if (error instanceof CallLocked) throw new DomainError("conflict", error.message);
  throw error;
}

export async function ownerMoveCall(db: DB, env: Env, bookingId: string, startAt: string) {
  const call = await builtinCall(db, bookingId);
  const studio = await getStudio(db, { studioEmail: env.STUDIO_EMAIL });
  const e = { ...env, studio: studio.identity };
  const start = Date.parse(startAt);
  if (!Number.isFinite(start)) throw new DomainError("invalid", "Pick a time to move the call to.");
  const moved = await moveCall(db, bookingId, {
    start,
    timeZone: call.timezone,
    calendar: studio.calendar,
    by: "owner",
    studioEmail: studio.identity.contactEmail,
    mails: (now, before) => callChangeMails(now, { kind: "moved", before }, "owner", e),
  }).catch(asDomainError);
  await deliverBookingEmails(db, e, moved.queued);
  return { startAt: moved.call.startAt };
}

export async function ownerCancelCall(db: DB, env: Env, bookingId: string) {
  await builtinCall(db, bookingId);
  const studio = await getStudio(db, { studioEmail: env.STUDIO_EMAIL });
  const e = { ...env, studio: studio.identity };
  const cancelled = await cancelCall(db, bookingId, {
    calendar: studio.calendar,
    by: "owner",
    studioEmail: studio.identity.contactEmail,
    mails: (now) => callChangeMails(now, { kind: "cancelled" }, "owner", e),
  }).catch(asDomainError);
  await deliverBookingEmails(db, e, cancelled.queued);
  return { ok: true };
}
