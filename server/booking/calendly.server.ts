import { z } from "zod";
import { safeTimeZone } from "#domain/meeting-time";
import type { CallDetails } from "./call.server";

/**
 * Calendly's API, as far as the booking needs it (decision 014): the scheduled event and its
 * invitee, read with the studio's token. The browser only names them (two URIs from the
 * calendar's `calendly.event_scheduled` message); what the booking stores comes from here or from
 * a signed webhook.
 */

/** The canonical origin of Calendly's resource URIs, whatever API base the server calls. */
export const CALENDLY_URI_ORIGIN = "https://api.calendly.com";

const UUID = "[A-Za-z0-9][A-Za-z0-9-]{0,63}";
const EVENT_URI = new RegExp(`^${CALENDLY_URI_ORIGIN.replace(/\./g, "\\.")}/scheduled_events/(${UUID})$`);
const INVITEE_URI = new RegExp(
  `^${CALENDLY_URI_ORIGIN.replace(/\./g, "\\.")}/scheduled_events/(${UUID})/invitees/(${UUID})$`,
);

/** A scheduled event and one of its invitees, as URIs and the UUIDs taken from their paths. */
export type CalendlyRef = { eventUri: string; inviteeUri: string; eventUuid: string; inviteeUuid: string };

/**
 * The event and invitee URIs a browser sent, when both are Calendly's own and the invitee belongs
 * to the event; null for anything else (missing, another host, a path with more or less in it).
 */
export function parseCalendlyRef(eventUri: unknown, inviteeUri: unknown): CalendlyRef | null {
  if (typeof eventUri !== "string" || typeof inviteeUri !== "string") return null;
  const e = EVENT_URI.exec(eventUri);
  const i = INVITEE_URI.exec(inviteeUri);
  if (!e || !i || i[1] !== e[1]) return null;
  return { eventUri, inviteeUri, eventUuid: e[1], inviteeUuid: i[2] };
}

/** The invitee URI alone (a webhook's `uri`, `old_invitee`, `new_invitee`). */
export function parseInviteeUri(inviteeUri: unknown): CalendlyRef | null {
  if (typeof inviteeUri !== "string") return null;
  const i = INVITEE_URI.exec(inviteeUri);
  if (!i) return null;
  return {
    eventUri: `${CALENDLY_URI_ORIGIN}/scheduled_events/${i[1]}`,
    inviteeUri,
    eventUuid: i[1],
    inviteeUuid: i[2],
  };
}

/** What the booking keeps of a call. Times are UTC ISO-8601; links are https or null. */
export type Meeting = CallDetails & {
  eventUri: string;
  inviteeUri: string;
  email: string;
  /** Set when the invitee was replaced by a reschedule: the new invitee's URI. */
  newInviteeUri: string | null;
};

const isoTime = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), "not a time")
  .transform((v) => new Date(v).toISOString());

/** An https link, or null (anything else is dropped: these are shown as links). */
const httpsUrl = z.unknown().transform((v) => {
  if (typeof v !== "string") return null;
  try {
    const u = new URL(v);
    return u.protocol === "https:" ? u.toString() : null;
  } catch {
    return null;
  }
});

export const eventSchema = z.object({
  uri: z.string(),
  status: z.string().optional(),
  start_time: isoTime,
  end_time: isoTime,
  location: z.object({ join_url: httpsUrl.optional() }).passthrough().nullish(),
});

export const inviteeSchema = z.object({
  uri: z.string(),
  email: z.string().default(""),
  status: z.string().optional(),
  timezone: z.string().nullish(),
  cancel_url: httpsUrl.optional(),
  reschedule_url: httpsUrl.optional(),
  rescheduled: z.boolean().nullish(),
  new_invitee: z.string().nullish(),
  old_invitee: z.string().nullish(),
});

/** The meeting of an event and its invitee (API resources, or a webhook's payload). */
export function meetingOf(
  event: z.infer<typeof eventSchema>,
  invitee: z.infer<typeof inviteeSchema>,
  ref: { eventUri: string; inviteeUri: string },
): Meeting {
  const canceled = invitee.status === "canceled" || event.status === "canceled";
  const newInvitee = parseInviteeUri(invitee.new_invitee)?.inviteeUri ?? null;
  return {
    eventUri: ref.eventUri,
    inviteeUri: ref.inviteeUri,
    status: canceled ? (invitee.rescheduled ? "rescheduled" : "cancelled") : "scheduled",
    startAt: event.start_time,
    endAt: event.end_time,
    timezone: safeTimeZone(invitee.timezone),
    joinUrl: event.location?.join_url ?? null,
    cancelUrl: invitee.cancel_url ?? null,
    rescheduleUrl: invitee.reschedule_url ?? null,
    email: invitee.email.toLowerCase(),
    newInviteeUri: newInvitee,
  };
}

/** A failed read. `retry` is false when asking again cannot help (the event does not exist). */
export class CalendlyError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

export type CalendlyApi = { token?: string; base: string; timeoutMs: number };

async function getResource(api: CalendlyApi, path: string): Promise<unknown> {
  if (!api.token) throw new CalendlyError("CALENDLY_TOKEN is not set", true);
  let res: Response;
  try {
    res = await fetch(`${api.base}${path}`, {
      headers: { Authorization: `Bearer ${api.token}`, Accept: "application/json" },
      signal: AbortSignal.timeout(api.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new CalendlyError(
      timedOut
        ? `Calendly did not answer within ${api.timeoutMs} ms`
        : `Calendly could not be reached: ${(error as Error).message}`,
      true,
    );
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    // 404: no such event in the studio's account (a made-up or foreign URI): asking again cannot help.
    throw new CalendlyError(`Calendly answered ${res.status} for ${path}`, res.status !== 404);
  }
  const body = (await res.json().catch(() => null)) as { resource?: unknown } | null;
  if (!body || typeof body !== "object" || !body.resource)
    throw new CalendlyError(`Calendly's answer for ${path} has no resource`, true);
  return body.resource;
}

/** How many reschedules are followed from a cancelled invitee to its replacement in one read. */
const MAX_HOPS = 3;

/**
 * Reads the event and the invitee from Calendly's API. When the invitee was rescheduled, follows
 * it to the new invitee (at most MAX_HOPS times), so the booking learns where the call went.
 */
export async function readMeeting(api: CalendlyApi, ref: CalendlyRef): Promise<Meeting> {
  let current = ref;
  for (let hop = 0; ; hop++) {
    const [eventRaw, inviteeRaw] = await Promise.all([
      getResource(api, `/scheduled_events/${encodeURIComponent(current.eventUuid)}`),
      getResource(
        api,
        `/scheduled_events/${encodeURIComponent(current.eventUuid)}/invitees/${encodeURIComponent(current.inviteeUuid)}`,
      ),
    ]);
    const event = eventSchema.safeParse(eventRaw);
    const invitee = inviteeSchema.safeParse(inviteeRaw);
    if (!event.success || !invitee.success)
      throw new CalendlyError("Calendly's event or invitee is not in the expected shape", true);
    const meeting = meetingOf(event.data, invitee.data, current);
    const next = meeting.status === "rescheduled" ? parseInviteeUri(meeting.newInviteeUri) : null;
    if (!next || hop >= MAX_HOPS) return meeting;
    current = next;
  }
}
