import crypto from "node:crypto";
import { z } from "zod";
import type { DB } from "../db/db.server";
import { nowIso, toJson } from "../db/json";
import { env } from "../env.server";
import {
  eventSchema,
  inviteeSchema,
  meetingOf,
  parseInviteeUri,
  type CalendlyRef,
  type Meeting,
} from "../booking/calendly.server";
import { applyMeeting, EMAIL_MATCH_WINDOW_MS, markMeeting } from "../booking/meeting.server";
import { log } from "../log.server";

/** How old a signature's timestamp may be (either way) before the webhook is refused as stale. */
export const SIGNATURE_TOLERANCE_S = 180;

/**
 * Checks `Calendly-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(key, "<t>.<raw body>")>`
 * on the raw body: the timestamp within SIGNATURE_TOLERANCE_S of `now`, the MAC compared in
 * constant time. Any malformed header is refused.
 */
export function verifyCalendlySignature(
  header: string | null,
  rawBody: string,
  key: string,
  now: Date = new Date(),
): boolean {
  if (!header || !key) return false;
  let t: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const i = part.indexOf("=");
    if (i < 0) return false;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === "t") t = v;
    else if (k === "v1") v1.push(v);
  }
  if (!t || !/^\d{1,12}$/.test(t) || !v1.length) return false;
  if (Math.abs(now.getTime() / 1000 - Number(t)) > SIGNATURE_TOLERANCE_S) return false;
  const expected = crypto.createHmac("sha256", key).update(`${t}.${rawBody}`, "utf8").digest();
  return v1.some((sig) => {
    if (!/^[0-9a-f]{64}$/i.test(sig)) return false;
    return crypto.timingSafeEqual(Buffer.from(sig, "hex"), expected);
  });
}

const webhookSchema = z.object({
  event: z.string(),
  payload: inviteeSchema.extend({
    email: z.string().default(""),
    scheduled_event: z.unknown().optional(),
  }),
});

function text(status: number, body: string) {
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

type Outcome = { outcome: string; bookingId: string | null; meeting: Meeting | null };

/**
 * POST /webhooks/calendly (decision 014): verified with CALENDLY_WEBHOOK_SIGNING_KEY on the raw
 * body (400 when missing, malformed, wrong or stale); each event recorded by id
 * (`<event>:<invitee uri>`) before it is processed, so a replay answers 200 and changes nothing;
 * a processing failure forgets the id and answers 500, so Calendly's retry is processed.
 * - `invitee.created` gives a booking its call (the time when the browser's message was lost, or
 *   the new time of a reschedule); one that matches no booking yet is kept for the booking
 *   confirmed later by the same email.
 * - `invitee.canceled` marks the booking's call cancelled, or `rescheduled` when Calendly says the
 *   invitee rescheduled (the new `invitee.created` then brings the time), and cancels its reminders.
 */
export async function handleCalendlyWebhook(db: DB, request: Request, now: Date = new Date()): Promise<Response> {
  const key = env().CALENDLY_WEBHOOK_SIGNING_KEY;
  const raw = await request.text();
  if (!key) return text(400, "Calendly webhooks are not configured (CALENDLY_WEBHOOK_SIGNING_KEY is not set)");
  if (!verifyCalendlySignature(request.headers.get("calendly-webhook-signature"), raw, key, now))
    return text(400, "Invalid or expired signature");
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return text(400, "The body is not JSON");
  }
  const kind = json && typeof json === "object" ? (json as { event?: unknown }).event : undefined;
  if (typeof kind !== "string") return text(400, "Not a Calendly webhook");
  // Other subscriptions (routing forms, ...) are acknowledged and left alone.
  if (kind !== "invitee.created" && kind !== "invitee.canceled") return text(200, "ignored");
  const parsed = webhookSchema.safeParse(json);
  if (!parsed.success) return text(400, "Not a Calendly invitee webhook");
  const { event, payload } = parsed.data;
  const ref = parseInviteeUri(payload.uri);
  if (!ref) return text(400, "The invitee is not a Calendly invitee URI");

  const id = `${event}:${ref.inviteeUri}`;
  const email = payload.email.toLowerCase();
  const seen = await db
    .insertInto("calendly_webhook_events")
    .values({
      id,
      event,
      invitee_uri: ref.inviteeUri,
      email,
      booking_id: null,
      meeting: null,
      outcome: "processing",
      received_at: nowIso(now),
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  if (Number(seen.numInsertedOrUpdatedRows ?? 0) === 0) return text(200, "duplicate");

  try {
    const result =
      event === "invitee.created"
        ? await inviteeCreated(db, ref, payload, email, now)
        : await inviteeCanceled(db, ref, payload.rescheduled === true, now);
    await db
      .updateTable("calendly_webhook_events")
      .set({
        outcome: result.outcome,
        booking_id: result.bookingId,
        meeting: result.meeting ? toJson(result.meeting) : null,
      })
      .where("id", "=", id)
      .execute();
    log.info(
      `[calendly] ${event} ${ref.inviteeUri}: ${result.outcome}${result.bookingId ? ` (booking ${result.bookingId})` : ""}`,
    );
    return text(200, result.outcome);
  } catch (error) {
    await db.deleteFrom("calendly_webhook_events").where("id", "=", id).execute();
    log.error({ err: error }, "[calendly] webhook processing failed");
    return text(500, "processing failed");
  }
}

/**
 * The booking an `invitee.created` belongs to, in this order:
 * 1. the booking that already holds this invitee (the browser named it; its read may have failed);
 * 2. the booking holding the invitee it replaces (`old_invitee`: a reschedule);
 * 3. the latest booking with the invitee's email (booking emails are stored lowercased) that has
 *    no call yet (no invitee, no status) and was made within EMAIL_MATCH_WINDOW_MS.
 */
async function bookingForCreated(
  db: DB,
  ref: CalendlyRef,
  oldInvitee: string | null | undefined,
  email: string,
  now: Date,
): Promise<string | null> {
  const byInvitee = await db
    .selectFrom("bookings")
    .select("id")
    .where("calendly_invitee_uri", "=", ref.inviteeUri)
    .executeTakeFirst();
  if (byInvitee) return byInvitee.id;
  const old = parseInviteeUri(oldInvitee);
  if (old) {
    const byOld = await db
      .selectFrom("bookings")
      .select("id")
      .where("calendly_invitee_uri", "=", old.inviteeUri)
      .executeTakeFirst();
    if (byOld) return byOld.id;
  }
  if (!email) return null;
  const byEmail = await db
    .selectFrom("bookings")
    .select("id")
    .where("email", "=", email)
    .where("calendly_invitee_uri", "is", null)
    .where("meeting_status", "is", null)
    .where("created_at", ">=", new Date(now.getTime() - EMAIL_MATCH_WINDOW_MS).toISOString())
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return byEmail?.id ?? null;
}

async function inviteeCreated(
  db: DB,
  ref: CalendlyRef,
  payload: z.infer<typeof webhookSchema>["payload"],
  email: string,
  now: Date,
): Promise<Outcome> {
  const scheduled = eventSchema.safeParse(payload.scheduled_event);
  const meeting = scheduled.success ? meetingOf(scheduled.data, payload, ref) : null;
  const bookingId = await bookingForCreated(db, ref, payload.old_invitee, email, now);
  if (!bookingId)
    return { outcome: "unmatched: kept for a booking confirmed later by this email", bookingId: null, meeting };
  if (meeting) {
    const applied = await applyMeeting(db, bookingId, meeting, now);
    return {
      outcome: applied === "taken" ? "not applied: another booking holds this invitee" : `call ${applied}`,
      bookingId,
      meeting,
    };
  }
  // An older payload without the event's details: name the call and let the loop read it.
  await db
    .updateTable("bookings")
    .set({
      calendly_event_uri: ref.eventUri,
      calendly_invitee_uri: ref.inviteeUri,
      meeting_fetch_next_at: nowIso(now),
      meeting_fetch_attempts: 0,
      meeting_fetch_error: null,
    })
    .where("id", "=", bookingId)
    .execute();
  return { outcome: "call named; its time is read from the API", bookingId, meeting: null };
}

async function inviteeCanceled(db: DB, ref: CalendlyRef, rescheduled: boolean, now: Date): Promise<Outcome> {
  const booking = await db
    .selectFrom("bookings")
    .select("id")
    .where("calendly_invitee_uri", "=", ref.inviteeUri)
    .executeTakeFirst();
  if (!booking)
    return { outcome: "no booking holds this invitee (already moved on, or unknown)", bookingId: null, meeting: null };
  const changed = await markMeeting(db, booking.id, rescheduled ? "rescheduled" : "cancelled", now);
  return {
    outcome: changed ? (rescheduled ? "call being rescheduled" : "call cancelled") : "unchanged",
    bookingId: booking.id,
    meeting: null,
  };
}
