import type { DB } from "../db/db.server";
import { fromJson, nowIso } from "../db/json";
import { storedMeetingSchema } from "../db/json-columns";
import type { MeetingStatus } from "../db/schema";
import { cancelBookingReminders, scheduleMail } from "../email/mailer.server";
import type { Env } from "../env.server";
import { CALL_COLUMNS, callOfRow, type CallRow } from "./call.server";
import { getStudio } from "../studio/studio.server";
import {
  CalendlyError,
  parseCalendlyRef,
  readMeeting,
  type CalendlyApi,
  type CalendlyRef,
  type Meeting,
} from "./calendly.server";
import { plannedReminders, reminderMail, REMINDER_OFFSETS_MS, type CallKnowledge } from "./emails.server";
import { log } from "../log.server";

/**
 * The booking's call, kept true (decision 014): learnt from Calendly's API (the browser only names
 * the event), from signed webhooks, or read again by the server's loop when Calendly could not be
 * reached; reminders follow it.
 */

/** How long the visitor's confirm waits for Calendly before answering without the time. */
export const CONFIRM_FETCH_TIMEOUT_MS = 3_000;
/** A read by the background loop may take longer. */
const LOOP_FETCH_TIMEOUT_MS = 10_000;
/** Reads of a call before the server gives up (≈ 17 hours of backoff). */
export const MAX_FETCH_ATTEMPTS = 20;
/** A read in progress is taken over by another loop only after this long (a crash mid-read). */
const FETCH_LEASE_MS = 60_000;

/** What reading Calendly takes from the environment: the token (none: nothing is read) and the API's origin. */
export type CalendlySettings = Pick<Env, "CALENDLY_TOKEN" | "CALENDLY_API_BASE">;

export function calendlyApi(e: CalendlySettings, timeoutMs = LOOP_FETCH_TIMEOUT_MS): CalendlyApi {
  return { token: e.CALENDLY_TOKEN, base: e.CALENDLY_API_BASE, timeoutMs };
}

/** 30 s, 1 min, 2 min, ... up to an hour between reads. */
export function fetchBackoffMs(attempts: number): number {
  return Math.min(60 * 60 * 1000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

async function callRow(db: DB, bookingId: string): Promise<CallRow | undefined> {
  return db.selectFrom("bookings").select(CALL_COLUMNS).where("id", "=", bookingId).executeTakeFirst();
}

/** The booking's call when it is scheduled, as its confirmation tells it (the reminders still ahead). */
export async function scheduledCall(db: DB, bookingId: string, now: Date): Promise<CallKnowledge | null> {
  const row = await callRow(db, bookingId);
  const call = row ? callOfRow(row) : null;
  return call && call.status === "scheduled"
    ? { state: "call", call, reminders: plannedReminders(call.startAt, now) }
    : null;
}

/**
 * Reminders of the booking's call, made again from what the booking now says: pending ones are
 * cancelled (`reason`), and for a scheduled call the 24 h and 1 h reminders still ahead of `now`
 * are written to the outbox, due at their time and void once the call begins (the 24 h one also
 * once the 1 h one is due). Run in the caller's transaction.
 */
export async function planReminders(db: DB, bookingId: string, now: Date, reason: string): Promise<number> {
  await cancelBookingReminders(db, bookingId, reason);
  const row = await callRow(db, bookingId);
  const call = row ? callOfRow(row) : null;
  if (!call || call.status !== "scheduled") return 0;
  const start = Date.parse(call.startAt);
  const kinds = plannedReminders(call.startAt, now);
  const { identity } = kinds.length ? await getStudio(db) : { identity: null };
  for (const kind of kinds) {
    await scheduleMail(
      db,
      reminderMail(call, kind, identity!),
      {
        bookingId,
        kind,
        sendAfter: new Date(start - REMINDER_OFFSETS_MS[kind]),
        expiresAt: new Date(kind === "reminder_24h" ? start - REMINDER_OFFSETS_MS.reminder_1h : start),
      },
      now,
    );
  }
  return kinds.length;
}

export type ApplyOutcome = "updated" | "unchanged" | "taken";

/**
 * Stores a call read from Calendly (or a signed webhook) on the booking. The booking takes the
 * meeting's invitee URI, unless another booking already holds it (`taken`: nothing changes). The
 * .ics sequence grows when a known call moves or changes status. Reminders are planned again
 * whenever anything they show changed.
 */
export async function applyMeeting(
  db: DB,
  bookingId: string,
  meeting: Meeting,
  now: Date = new Date(),
): Promise<ApplyOutcome> {
  return db.transaction().execute(async (trx) => {
    const row = await callRow(trx, bookingId);
    if (!row) return "unchanged";
    const holder = await trx
      .selectFrom("bookings")
      .select("id")
      .where("calendly_invitee_uri", "=", meeting.inviteeUri)
      .where("id", "!=", bookingId)
      .executeTakeFirst();
    if (holder) {
      log.warn(
        `[calendly] invitee ${meeting.inviteeUri} already belongs to another booking; booking ${bookingId} keeps what it had`,
      );
      await trx
        .updateTable("bookings")
        .set({ meeting_fetch_next_at: null, meeting_fetch_error: "This calendar booking belongs to another booking." })
        .where("id", "=", bookingId)
        .execute();
      return "taken";
    }
    const next = {
      meeting_provider: "calendly" as const,
      calendly_event_uri: meeting.eventUri,
      calendly_invitee_uri: meeting.inviteeUri,
      meeting_status: meeting.status,
      meeting_start_at: meeting.startAt,
      meeting_end_at: meeting.endAt,
      invitee_timezone: meeting.timezone,
      meeting_join_url: meeting.joinUrl,
      meeting_cancel_url: meeting.cancelUrl,
      meeting_reschedule_url: meeting.rescheduleUrl,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => row[k] !== next[k]);
    if (!changed) {
      if (row.meeting_fetch_next_at || row.meeting_fetch_error) {
        await trx
          .updateTable("bookings")
          .set({ meeting_fetch_next_at: null, meeting_fetch_error: null })
          .where("id", "=", bookingId)
          .execute();
      }
      return "unchanged";
    }
    const known = row.meeting_status !== null && row.meeting_start_at !== null;
    const moved =
      known &&
      (row.meeting_start_at !== next.meeting_start_at ||
        row.meeting_end_at !== next.meeting_end_at ||
        row.meeting_status !== next.meeting_status);
    await trx
      .updateTable("bookings")
      .set({
        ...next,
        meeting_sequence: moved ? row.meeting_sequence + 1 : row.meeting_sequence,
        meeting_updated_at: nowIso(now),
        meeting_fetch_next_at: null,
        meeting_fetch_error: null,
        updated_at: nowIso(now),
      })
      .where("id", "=", bookingId)
      .execute();
    await planReminders(
      trx,
      bookingId,
      now,
      known ? "The call moved or changed: a new reminder replaces this one." : "Replaced.",
    );
    return "updated";
  });
}

/**
 * The call was cancelled in the calendar (`cancelled`), or cancelled there because it is being
 * rescheduled (`rescheduled`: the new time follows). Its pending reminders are cancelled.
 */
export async function markMeeting(
  db: DB,
  bookingId: string,
  status: Exclude<MeetingStatus, "scheduled">,
  now: Date = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await callRow(trx, bookingId);
    if (!row || row.meeting_status === status) return false;
    await trx
      .updateTable("bookings")
      .set({
        meeting_status: status,
        meeting_sequence: row.meeting_sequence + 1,
        meeting_updated_at: nowIso(now),
        meeting_fetch_next_at: null,
        updated_at: nowIso(now),
      })
      .where("id", "=", bookingId)
      .execute();
    await cancelBookingReminders(
      trx,
      bookingId,
      status === "cancelled"
        ? "The call was cancelled in the calendar."
        : "The call is being rescheduled: reminders follow the new time.",
    );
    return true;
  });
}

/**
 * Reads the booking's call from Calendly now and stores it. On failure the booking keeps waiting:
 * the next read is scheduled with backoff (or given up, when asking again cannot help or after
 * MAX_FETCH_ATTEMPTS). Returns whether the call is now known.
 */
export async function fetchMeeting(
  db: DB,
  bookingId: string,
  ref: CalendlyRef,
  api: CalendlyApi,
  now: Date = new Date(),
): Promise<boolean> {
  try {
    const meeting = await readMeeting(api, ref);
    return (await applyMeeting(db, bookingId, meeting, now)) !== "taken";
  } catch (error) {
    const retry = !(error instanceof CalendlyError) || error.retry;
    const message = error instanceof Error ? error.message : String(error);
    const row = await db
      .selectFrom("bookings")
      .select(["meeting_fetch_attempts"])
      .where("id", "=", bookingId)
      .executeTakeFirst();
    const attempts = (row?.meeting_fetch_attempts ?? 0) + 1;
    const giveUp = !retry || attempts >= MAX_FETCH_ATTEMPTS;
    log.warn(
      `[calendly] reading the call of booking ${bookingId} failed (attempt ${attempts}${giveUp ? ", giving up" : ""}): ${message}`,
    );
    await db
      .updateTable("bookings")
      .set({
        meeting_fetch_attempts: attempts,
        meeting_fetch_error: message.slice(0, 500),
        meeting_fetch_next_at: giveUp ? null : new Date(now.getTime() + fetchBackoffMs(attempts)).toISOString(),
      })
      .where("id", "=", bookingId)
      .execute();
    return false;
  }
}

/**
 * Reads again the calls Calendly could not be asked about before (its API was down or slow), as
 * their backoff comes due at `now`. Run every 5 s by the server beside the mail outbox; does
 * nothing without CALENDLY_TOKEN (the bookings wait, and are read once a token is set). Each
 * booking is claimed first, so two loops never read it twice at once. Returns how many were read.
 */
export async function fillPendingMeetings(
  db: DB,
  api: CalendlyApi,
  now: Date = new Date(),
  limit = 10,
): Promise<number> {
  if (!api.token) return 0;
  const due = await db
    .selectFrom("bookings")
    .select(["id", "calendly_event_uri", "calendly_invitee_uri", "meeting_fetch_next_at"])
    .where("meeting_fetch_next_at", "<=", nowIso(now))
    .orderBy("meeting_fetch_next_at")
    .limit(limit)
    .execute();
  let read = 0;
  for (const b of due) {
    const ref = parseCalendlyRef(b.calendly_event_uri, b.calendly_invitee_uri);
    if (!ref) {
      await db.updateTable("bookings").set({ meeting_fetch_next_at: null }).where("id", "=", b.id).execute();
      continue;
    }
    const claimed = await db
      .updateTable("bookings")
      .set({ meeting_fetch_next_at: new Date(now.getTime() + FETCH_LEASE_MS).toISOString() })
      .where("id", "=", b.id)
      .where("meeting_fetch_next_at", "=", b.meeting_fetch_next_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    await fetchMeeting(db, b.id, ref, api, now);
    read++;
  }
  return read;
}

/**
 * How far apart a booking and a calendar booking by the same email may be and still be taken as
 * one (a webhook without the browser's message, or a booking confirmed after scheduling in a new
 * tab): 7 days (decision 014).
 */
export const EMAIL_MATCH_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * An `invitee.created` webhook that arrived before its booking existed, kept with its meeting:
 * by invitee URI when the browser named one, else the latest for this email within the window
 * that no booking took and that was not cancelled since.
 */
async function storedWebhookMeeting(
  db: DB,
  email: string,
  inviteeUri: string | null,
  now: Date,
): Promise<{ id: string; meeting: Meeting } | null> {
  let q = db
    .selectFrom("calendly_webhook_events")
    .select(["id", "meeting", "invitee_uri"])
    .where("event", "=", "invitee.created")
    .where("meeting", "is not", null);
  q = inviteeUri
    ? q.where("invitee_uri", "=", inviteeUri)
    : q
        .where("email", "=", email.toLowerCase())
        .where("booking_id", "is", null)
        .where("received_at", ">=", new Date(now.getTime() - EMAIL_MATCH_WINDOW_MS).toISOString());
  const rows = await q.orderBy("received_at", "desc").limit(5).execute();
  for (const r of rows) {
    const cancelled = await db
      .selectFrom("calendly_webhook_events")
      .select("id")
      .where("event", "=", "invitee.canceled")
      .where("invitee_uri", "=", r.invitee_uri)
      .executeTakeFirst();
    if (cancelled) continue;
    const meeting: Meeting | null = fromJson(r.meeting, storedMeetingSchema, null);
    if (meeting) return { id: r.id, meeting };
  }
  return null;
}

/**
 * Right after a booking is saved: what the server can learn of its call within the visitor's
 * wait. A webhook that already told (signed) wins; otherwise, with the browser's URIs, Calendly's
 * API is read with a short timeout, and on failure the loop reads it later. Without URIs, a
 * webhook for the same email is the only source. The answer tells the confirmation email what it
 * may say.
 */
export async function learnCallAtConfirm(
  db: DB,
  e: CalendlySettings & Pick<Env, "CALENDLY_WEBHOOK_SIGNING_KEY">,
  booking: { id: string; email: string; ref: CalendlyRef | null },
  now: Date = new Date(),
): Promise<CallKnowledge> {
  const stored = await storedWebhookMeeting(db, booking.email, booking.ref?.inviteeUri ?? null, now);
  if (stored && (await applyMeeting(db, booking.id, stored.meeting, now)) !== "taken") {
    await db
      .updateTable("calendly_webhook_events")
      .set({ booking_id: booking.id, outcome: "matched at confirm" })
      .where("id", "=", stored.id)
      .execute();
  } else if (booking.ref && e.CALENDLY_TOKEN) {
    await fetchMeeting(db, booking.id, booking.ref, calendlyApi(e, CONFIRM_FETCH_TIMEOUT_MS), now);
  }
  const row = await callRow(db, booking.id);
  const call = row ? callOfRow(row) : null;
  if (call && call.status === "scheduled")
    return { state: "call", call, reminders: plannedReminders(call.startAt, now) };
  const confirming = Boolean(row?.calendly_invitee_uri);
  const learnable =
    Boolean(e.CALENDLY_WEBHOOK_SIGNING_KEY) || Boolean(confirming && e.CALENDLY_TOKEN && row?.meeting_fetch_next_at);
  return { state: confirming ? "confirming" : "unknown", remindersPromised: learnable };
}
