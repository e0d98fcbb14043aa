import { data, redirect } from "@remix-run/node";
import { isTimeZone } from "#domain/availability";
import { SlotUnavailable } from "../calendar/calls.server";
import { CallLocked, cancelCall, changeProblem, moveCall } from "../booking/call-changes.server";
import { bookingOfToken } from "../booking/call-link.server";
import { callPickerFor } from "../booking/call-picker.server";
import { CALL_COLUMNS, callOfRow, callPlace, visitorTime } from "../booking/call.server";
import { callChangeMails } from "../booking/call-change-mails.server";
import { deliverBookingEmails } from "../booking/emails.server";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { rateLimit, TooManyRequests } from "../rate-limit.server";
import { getStudio } from "../studio/studio.server";
import { retryAfterHeaders } from "./domain-errors";

/**
 * `/call/<token>` (issue 43.7): the client's own page for a built-in call, opened from the link in
 * its confirmation and reminders, no account needed. It shows the call as it is now and, until the
 * owner's cut-off, the free times to move it to (the same picker as step 6, plain forms) and a
 * button to cancel it. Any other token is 404, whether or not such a booking exists.
 */

export const PICK_A_NEW_TIME = "Please pick a new time for your call";

function notFound(): never {
  throw data({ message: "This link is not valid. Please use the link in your latest email from us." }, { status: 404 });
}

async function callOf(db: DB, token: string) {
  const bookingId = bookingOfToken(token, env().SESSION_SECRET);
  if (!bookingId) notFound();
  const row = await db.selectFrom("bookings").select(CALL_COLUMNS).where("id", "=", bookingId).executeTakeFirst();
  const call = row ? callOfRow(row) : null;
  if (!call || call.provider !== "builtin") notFound();
  return call;
}

export async function callPage(db: DB, token: string, request: Request) {
  const call = await callOf(db, token);
  const studio = await getStudio(db);
  const now = Date.now();
  const locked = changeProblem(call, studio.calendar, "client", now, studio.identity.contactEmail);
  const url = new URL(request.url);
  return {
    studioName: studio.identity.name,
    contactEmail: studio.identity.contactEmail,
    status: call.status,
    when: visitorTime(call).full,
    place: callPlace(call),
    joinUrl: call.joinUrl,
    locked: locked?.message ?? null,
    done: url.searchParams.get("done"),
    /** The page's own path: the picker's links and zone changes stay on it. */
    path: url.pathname,
    picker: locked
      ? null
      : await callPickerFor(db, studio.calendar, call.timezone, url, now, {
          except: call.bookingId,
          current: Date.parse(call.startAt),
        }),
  };
}

export type CallPageAction = { slotError?: string; error?: string };

export async function callPageAction(db: DB, token: string, request: Request, clientKey: string) {
  const call = await callOf(db, token);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const path = `/call/${encodeURIComponent(token)}`;
  if (intent === "timezone") {
    const zone = String(form.get("callTimeZone") ?? "");
    return redirect(isTimeZone(zone) ? `${path}?tz=${encodeURIComponent(zone)}` : path);
  }
  try {
    await rateLimit("booking-confirm", clientKey);
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error;
    return data<CallPageAction>({ error: error.message }, { status: 429, headers: retryAfterHeaders(error) });
  }
  const studio = await getStudio(db);
  const e = { ...env(), studio: studio.identity };
  const common = { calendar: studio.calendar, by: "client" as const, studioEmail: studio.identity.contactEmail };
  try {
    if (intent === "move") {
      const posted = form.get("slot");
      const start = typeof posted === "string" && posted.length <= 40 ? Date.parse(posted) : NaN;
      if (!Number.isFinite(start)) return data<CallPageAction>({ slotError: PICK_A_NEW_TIME }, { status: 400 });
      const zone = String(form.get("callTimeZone") ?? "");
      const moved = await moveCall(db, call.bookingId, {
        ...common,
        start,
        timeZone: isTimeZone(zone) ? zone : call.timezone,
        mails: (now, before) => callChangeMails(now, { kind: "moved", before }, "client", e),
      });
      await deliverBookingEmails(db, e, moved.queued);
      return redirect(`${path}?done=moved`);
    }
    if (intent === "cancel") {
      const cancelled = await cancelCall(db, call.bookingId, {
        ...common,
        mails: (now) => callChangeMails(now, { kind: "cancelled" }, "client", e),
      });
      await deliverBookingEmails(db, e, cancelled.queued);
      return redirect(`${path}?done=cancelled`);
    }
    return redirect(path);
  } catch (error) {
    if (error instanceof SlotUnavailable)
      return data<CallPageAction>({ slotError: error.message }, { status: error.reason === "taken" ? 409 : 400 });
    if (error instanceof CallLocked) return data<CallPageAction>({ error: error.message }, { status: 409 });
    throw error;
  }
}
