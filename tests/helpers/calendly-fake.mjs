// A local Calendly-compatible fake at the HTTP boundary (DESIGN.md §4.7), shared by the e2e fakes
// server (tests/helpers/fakes.mjs) and the integration tests:
//  - GET /scheduled_events/{uuid} and /scheduled_events/{uuid}/invitees/{uuid}, answering
//    `{ "resource": { ... } }` as Calendly does, for `Authorization: Bearer <token>` only;
//  - scheduling, rescheduling and cancelling calls as a visitor would in the calendar;
//  - the bodies and `Calendly-Webhook-Signature` of the webhooks Calendly would send.
import crypto from "node:crypto";

/** Calendly's resource URIs always name its API origin, whatever address serves them. */
export const CALENDLY_URI_ORIGIN = "https://api.calendly.com";

const uuid = () => crypto.randomBytes(8).toString("hex").toUpperCase();

/**
 * `Calendly-Webhook-Signature` for `body` signed with `key` at `t` (seconds).
 * @param {string} body
 * @param {string} key
 */
export function signCalendly(body, key, t = Math.floor(Date.now() / 1000)) {
  const v1 = crypto.createHmac("sha256", key).update(`${t}.${body}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

/**
 * @param {{ token?: string }} [opts]
 */
export function createCalendlyFake(opts = {}) {
  const token = opts.token ?? "calendly-test-token";
  /** @type {Map<string, any>} */
  const events = new Map();
  /** @type {Map<string, any>} */
  const invitees = new Map();
  const state = {
    token,
    /** "ok" answers; "down" answers 503; "hang" never answers (a timeout). */
    mode: /** @type {"ok" | "down" | "hang"} */ ("ok"),
    /** Every API request: path and Authorization header. */
    requests: /** @type {{ path: string; auth: string | undefined }[]} */ ([]),
  };

  /** @param {string} eventUuid */
  function eventUriOf(eventUuid) {
    return `${CALENDLY_URI_ORIGIN}/scheduled_events/${eventUuid}`;
  }

  /**
   * Books a call as the visitor would in the calendar.
   * @param {{ email: string; name?: string; startAt?: string; minutes?: number; timezone?: string; oldInvitee?: string | null }} input
   */
  function schedule(input) {
    const eventUuid = uuid();
    const inviteeUuid = uuid();
    const start = input.startAt ? new Date(input.startAt) : defaultStart();
    const end = new Date(start.getTime() + (input.minutes ?? 20) * 60_000);
    const eventUri = eventUriOf(eventUuid);
    const inviteeUri = `${eventUri}/invitees/${inviteeUuid}`;
    const now = new Date().toISOString();
    const event = {
      uri: eventUri,
      name: "Free consultation",
      status: "active",
      start_time: start.toISOString().replace(".000Z", ".000000Z"),
      end_time: end.toISOString().replace(".000Z", ".000000Z"),
      event_type: `${CALENDLY_URI_ORIGIN}/event_types/CONSULTATION`,
      location: {
        type: "google_conference",
        status: "pushed",
        join_url: `https://meet.google.com/fake-${eventUuid.toLowerCase()}`,
      },
      created_at: now,
      updated_at: now,
    };
    const invitee = {
      uri: inviteeUri,
      email: input.email,
      name: input.name ?? "Ada Lovelace",
      status: "active",
      timezone: input.timezone ?? "Europe/Berlin",
      event: eventUri,
      cancel_url: `https://calendly.com/cancellations/${inviteeUuid}`,
      reschedule_url: `https://calendly.com/reschedulings/${inviteeUuid}`,
      rescheduled: false,
      old_invitee: input.oldInvitee ?? null,
      new_invitee: null,
      created_at: now,
      updated_at: now,
    };
    events.set(eventUuid, event);
    invitees.set(`${eventUuid}/${inviteeUuid}`, invitee);
    return { eventUri, inviteeUri, event, invitee };
  }

  /** @param {string} inviteeUri */
  function inviteeByUri(inviteeUri) {
    const m = /\/scheduled_events\/([^/]+)\/invitees\/([^/]+)$/.exec(inviteeUri);
    return m ? invitees.get(`${m[1]}/${m[2]}`) : undefined;
  }

  /** @param {{ event: string }} invitee */
  function eventOf(invitee) {
    return events.get(/** @type {string} */ (invitee.event.split("/").pop()));
  }

  /**
   * Moves the call to `startAt`: the old invitee is cancelled as rescheduled, a new one booked.
   * @param {string} inviteeUri
   * @param {string} [startAt]
   */
  function reschedule(inviteeUri, startAt) {
    const old = inviteeByUri(inviteeUri);
    if (!old) throw new Error(`no such invitee ${inviteeUri}`);
    const next = schedule({
      email: old.email,
      name: old.name,
      startAt,
      timezone: old.timezone,
      oldInvitee: inviteeUri,
    });
    old.status = "canceled";
    old.rescheduled = true;
    old.new_invitee = next.inviteeUri;
    old.cancellation = { canceled_by: old.name, reason: null, canceler_type: "invitee" };
    eventOf(old).status = "canceled";
    return next;
  }

  /** @param {string} inviteeUri */
  function cancel(inviteeUri) {
    const invitee = inviteeByUri(inviteeUri);
    if (!invitee) throw new Error(`no such invitee ${inviteeUri}`);
    invitee.status = "canceled";
    invitee.cancellation = { canceled_by: invitee.name, reason: "Something came up", canceler_type: "invitee" };
    eventOf(invitee).status = "canceled";
    return invitee;
  }

  /**
   * The body Calendly posts for `invitee.created` / `invitee.canceled` of this invitee.
   * @param {string} kind
   * @param {string} inviteeUri
   */
  function webhookBody(kind, inviteeUri) {
    const invitee = inviteeByUri(inviteeUri);
    if (!invitee) throw new Error(`no such invitee ${inviteeUri}`);
    return JSON.stringify({
      event: kind,
      created_at: new Date().toISOString(),
      created_by: `${CALENDLY_URI_ORIGIN}/users/STUDIO`,
      payload: { ...invitee, scheduled_event: { ...eventOf(invitee) } },
    });
  }

  /**
   * Answers an API request; false when the path is not the API's (the caller answers it).
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   */
  function handle(req, res) {
    const url = new URL(req.url ?? "/", "http://fake");
    const m = /^\/scheduled_events\/([A-Za-z0-9-]+)(?:\/invitees\/([A-Za-z0-9-]+))?$/.exec(url.pathname);
    if (!m || req.method !== "GET") return false;
    state.requests.push({ path: url.pathname, auth: req.headers.authorization });
    /**
     * @param {number} status
     * @param {unknown} body
     */
    const send = (status, body) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (state.mode === "hang") return true;
    if (state.mode === "down") return (send(503, { title: "Service Unavailable", message: "Down for a test" }), true);
    if (req.headers.authorization !== `Bearer ${state.token}`)
      return (send(401, { title: "Unauthenticated", message: "The access token is invalid" }), true);
    const resource = m[2] ? invitees.get(`${m[1]}/${m[2]}`) : events.get(m[1]);
    if (!resource)
      return (
        send(404, { title: "Resource Not Found", message: "The server could not find the requested resource." }),
        true
      );
    send(200, { resource });
    return true;
  }

  return { state, schedule, reschedule, cancel, webhookBody, inviteeByUri, handle, sign: signCalendly };
}

/** Two days from now at the next full hour: a call far enough ahead for both reminders. */
function defaultStart() {
  const d = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
  d.setUTCMinutes(0, 0, 0);
  d.setUTCHours(d.getUTCHours() + 1);
  return d;
}
