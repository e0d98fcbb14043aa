import { formatCallTime, safeTimeZone, type CallTime } from "#domain/meeting-time";
import type { BookingRow, MeetingStatus } from "../db/schema";
import type { MailAttachment } from "../email/mailer.server";
import type { Env } from "../env.server";
import { callIcs, type IcsMethod } from "./ics.server";

/** The booking columns that describe its call. */
export const CALL_COLUMNS = [
  "id",
  "email",
  "full_name",
  "calendly_event_uri",
  "calendly_invitee_uri",
  "meeting_status",
  "meeting_start_at",
  "meeting_end_at",
  "invitee_timezone",
  "meeting_join_url",
  "meeting_cancel_url",
  "meeting_reschedule_url",
  "meeting_sequence",
  "meeting_updated_at",
  "meeting_fetch_next_at",
  "meeting_fetch_error",
  "meeting_fetch_attempts",
  "meeting_provider",
  "phone",
] as const;

export type CallRow = Pick<BookingRow, (typeof CALL_COLUMNS)[number]>;

/** What any call carries: its state, UTC times, the invitee's zone and its links (https or null). */
export type CallDetails = {
  status: MeetingStatus;
  startAt: string;
  endAt: string;
  timezone: string;
  joinUrl: string | null;
  cancelUrl: string | null;
  rescheduleUrl: string | null;
};

/** A call whose time is known (scheduled, or cancelled / being moved after it was). */
export type Call = CallDetails & {
  bookingId: string;
  sequence: number;
  updatedAt: string;
  email: string;
  name: string;
  /** Booked in the studio's own calendar ('builtin') or read from Calendly. */
  provider: "builtin" | "calendly" | null;
  /** The number the client gave (a built-in call without a video link is a phone call to it). */
  phone: string | null;
};

/** The booking's call when its time is known, else null. */
export function callOfRow(row: CallRow): Call | null {
  if (!row.meeting_status || !row.meeting_start_at || !row.meeting_end_at) return null;
  return {
    bookingId: row.id,
    status: row.meeting_status,
    startAt: row.meeting_start_at,
    endAt: row.meeting_end_at,
    timezone: safeTimeZone(row.invitee_timezone),
    joinUrl: row.meeting_join_url,
    cancelUrl: row.meeting_cancel_url,
    rescheduleUrl: row.meeting_reschedule_url,
    sequence: row.meeting_sequence,
    updatedAt: row.meeting_updated_at ?? row.meeting_start_at,
    email: row.email,
    name: row.full_name,
    provider: row.meeting_provider,
    phone: row.phone,
  };
}

/** The call's length in minutes. */
export const callMinutes = (call: Pick<Call, "startAt" | "endAt">) =>
  Math.round((Date.parse(call.endAt) - Date.parse(call.startAt)) / 60_000);

/**
 * Where the call happens, in words: the video link, or for a built-in call without one a phone
 * call to the client's number (issue 43.6: no invented links). Null when nothing is known.
 */
export function callPlace(call: Pick<Call, "joinUrl" | "provider" | "phone">): string | null {
  if (call.joinUrl) return call.joinUrl;
  if (call.provider === "builtin")
    return call.phone
      ? `Phone call: the studio calls you at ${call.phone}`
      : "Phone call: the studio will email you first";
  return null;
}

/** The call's time in the visitor's zone (the one they picked it in). */
export function visitorTime(call: Call): CallTime {
  return formatCallTime(call.startAt, call.endAt, call.timezone);
}

/**
 * The call's time in the studio's zone (STUDIO_TIMEZONE, passed in like the db).
 */
export function studioTime(call: Call, studio: Pick<Env, "STUDIO_TIMEZONE">): CallTime {
  return formatCallTime(call.startAt, call.endAt, studio.STUDIO_TIMEZONE);
}

/** The calendar event's title. */
export const callSummary = (studioName: string) => `Free consultation with ${studioName}`;

/**
 * What an invitation reads: from the environment the host of its UID and the organizer's address,
 * from Settings the studio's name.
 */
export type IcsSettings = Pick<Env, "APP_URL" | "STUDIO_EMAIL"> & { studioName: string };

/** The call as an .ics file: `REQUEST` for the email, `PUBLISH` for the download. */
export function callIcsText(call: Call, method: IcsMethod, e: IcsSettings): string {
  const place = callPlace(call);
  const lines = [
    `Your free ${callMinutes(call)}-minute consultation with ${e.studioName}.`,
    call.joinUrl ? `Join the call: ${call.joinUrl}` : place ? place : "",
    call.rescheduleUrl ? `Reschedule: ${call.rescheduleUrl}` : "",
    call.cancelUrl ? `Cancel: ${call.cancelUrl}` : "",
  ].filter(Boolean);
  return callIcs(
    {
      bookingId: call.bookingId,
      host: new URL(e.APP_URL).hostname,
      startAt: call.startAt,
      endAt: call.endAt,
      sequence: call.sequence,
      stampAt: call.updatedAt,
      status: call.status === "scheduled" ? "scheduled" : "cancelled",
      summary: callSummary(e.studioName),
      description: lines.join("\n"),
      joinUrl: call.joinUrl,
      location: place,
      organizer: { name: e.studioName, email: e.STUDIO_EMAIL },
      attendee: { name: call.name, email: call.email },
    },
    method,
  );
}

export const ICS_FILENAME = "consultation.ics";

/** The invitation attached to the client's confirmation (`text/calendar; method=REQUEST`). */
export function callIcsAttachment(call: Call, e: IcsSettings): MailAttachment {
  return {
    filename: ICS_FILENAME,
    contentType: `text/calendar; method=${call.status === "scheduled" ? "REQUEST" : "CANCEL"}`,
    content: callIcsText(call, "REQUEST", e),
  };
}
