import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loader as icsLoader } from "../../app/routes/booking.success[.]ics";
import { loader as successLoader } from "../../app/routes/booking.success";
import { calendlyApi, fillPendingMeetings } from "../../server/booking/meeting.server";
import { db } from "../../server/db.server";
import { migrateToLatest } from "../../server/db/db.server";
import { env } from "../../server/env.server";
import { createCalendlyFake } from "../helpers/calendly-fake.mjs";
import { bookingVisitor } from "../helpers/booking-visitor";

// Issue 18.1: the call confirmed on the server, against a local Calendly-compatible API.
const fake = createCalendlyFake({ token: "cal-token-1" });
let server: http.Server;
/** The fake API's requests in this test, each marked once its connection closed without an answer. */
const calls: { path: string; closedUnanswered: boolean }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const call = { path: req.url ?? "", closedUnanswered: false };
    calls.push(call);
    res.once("close", () => (call.closedUnanswered = !res.writableEnded));
    if (!fake.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  Object.assign(process.env, {
    // A studio that books through Calendly (it keeps it until the owner switches: issue 43.1).
    CALENDLY_URL: "https://calendly.com/studio-test/consultation",
    CALENDLY_TOKEN: "cal-token-1",
    CALENDLY_API_BASE: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    STUDIO_TIMEZONE: "America/New_York",
  });
  await migrateToLatest(db());
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  fake.state.mode = "ok";
  fake.state.requests.length = 0;
  calls.length = 0;
});

const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function bookingOf(email: string) {
  return db().selectFrom("bookings").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
}

async function mailsTo(to: string) {
  return db().selectFrom("email_outbox").selectAll().where("to_email", "=", to).orderBy("id").execute();
}

describe("the call, confirmed on the server", () => {
  it("stores the start, end, zone and links read from Calendly's API with the token, and the confirmation says when and carries the invitation", async () => {
    const email = unique("confirm");
    const call = fake.schedule({ email, startAt: "2031-03-04T13:00:00Z", minutes: 20, timezone: "Europe/Berlin" });
    const v = bookingVisitor(db);
    await v.walk(email);
    expect(await v.confirm({ eventUri: call.eventUri, inviteeUri: call.inviteeUri })).toEqual({
      status: 302,
      location: "/booking/success",
    });

    const b = await bookingOf(email);
    expect(b).toMatchObject({
      calendly_event_uri: call.eventUri,
      calendly_invitee_uri: call.inviteeUri,
      meeting_status: "scheduled",
      meeting_start_at: "2031-03-04T13:00:00.000Z",
      meeting_end_at: "2031-03-04T13:20:00.000Z",
      invitee_timezone: "Europe/Berlin",
      meeting_join_url: call.event.location.join_url,
      meeting_cancel_url: call.invitee.cancel_url,
      meeting_reschedule_url: call.invitee.reschedule_url,
      meeting_fetch_next_at: null,
      meeting_fetch_error: null,
    });
    const eventUuid = call.eventUri.split("/").pop();
    const inviteeUuid = call.inviteeUri.split("/").pop();
    expect(fake.state.requests.map((r) => r.path).sort()).toEqual(
      [`/scheduled_events/${eventUuid}`, `/scheduled_events/${eventUuid}/invitees/${inviteeUuid}`].sort(),
    );
    expect(fake.state.requests.every((r) => r.auth === "Bearer cal-token-1")).toBe(true);

    const [client] = await mailsTo(email);
    expect(client.text_body).toContain(
      "Your call: Tuesday, March 4, 2031, 2:00 PM – 2:20 PM (Central European Standard Time, Europe/Berlin)",
    );
    expect(client.text_body).toContain(`Join the call: ${call.event.location.join_url}`);
    expect(client.text_body).toContain(call.invitee.reschedule_url);
    expect(client.text_body).toContain("We'll email you a reminder 24 hours and 1 hour before the call.");
    const attachments = JSON.parse(client.attachments!);
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({
      filename: "consultation.ics",
      contentType: "text/calendar; method=REQUEST",
    });
    expect(attachments[0].content).toContain("DTSTART:20310304T130000Z");
    expect(attachments[0].content).toContain("METHOD:REQUEST");

    // The studio's notification says when, in the studio's zone.
    const studio = (await mailsTo("hello@studiorowan.example")).find((m) => m.text_body.includes(email))!;
    expect(studio.text_body).toContain(
      "Call: Tuesday, March 4, 2031, 8:00 AM – 8:20 AM (Eastern Standard Time, America/New_York)",
    );
  });

  it("takes the time from the API, never from the browser, and ignores URIs that are not Calendly's own", async () => {
    for (const [eventUri, inviteeUri] of [
      ["https://evil.example/scheduled_events/AAAA", "https://evil.example/scheduled_events/AAAA/invitees/BBBB"],
      [
        "https://api.calendly.com/scheduled_events/AAAA",
        "https://api.calendly.com/scheduled_events/CCCC/invitees/BBBB",
      ],
      [
        "https://api.calendly.com/scheduled_events/AAAA?x=1",
        "https://api.calendly.com/scheduled_events/AAAA/invitees/BBBB",
      ],
      [
        "https://api.calendly.com/scheduled_events/../users/me",
        "https://api.calendly.com/scheduled_events/AAAA/invitees/BBBB",
      ],
      ["http://api.calendly.com/scheduled_events/AAAA", "http://api.calendly.com/scheduled_events/AAAA/invitees/BBBB"],
    ]) {
      const email = unique("forged");
      const v = bookingVisitor(db);
      await v.walk(email);
      expect((await v.confirm({ eventUri, inviteeUri })).location).toBe("/booking/success");
      const b = await bookingOf(email);
      expect(b).toMatchObject({
        calendly_event_uri: null,
        calendly_invitee_uri: null,
        meeting_status: null,
        meeting_start_at: null,
        meeting_fetch_next_at: null,
      });
      const [client] = await mailsTo(email);
      expect(client.text_body).toContain(
        "If you picked a time in the calendar, its own confirmation email (from Calendly) has it",
      );
      expect(client.text_body).not.toMatch(/reminder/i);
      expect(client.attachments).toBeNull();
    }
    expect(fake.state.requests).toEqual([]);
  });

  it("a URI Calendly does not know (404) is not asked again; one booking per invitee", async () => {
    const email = unique("unknown-event");
    const v = bookingVisitor(db);
    await v.walk(email);
    await v.confirm({
      eventUri: "https://api.calendly.com/scheduled_events/NOPE",
      inviteeUri: "https://api.calendly.com/scheduled_events/NOPE/invitees/NOPE",
    });
    const b = await bookingOf(email);
    expect(b.meeting_start_at).toBeNull();
    expect(b.meeting_fetch_next_at).toBeNull();
    expect(b.meeting_fetch_error).toMatch(/404/);

    // A second booking naming the first one's invitee is saved without it.
    const first = unique("first");
    const call = fake.schedule({ email: first });
    const a = bookingVisitor(db);
    await a.walk(first);
    await a.confirm(call);
    const second = unique("second");
    const c = bookingVisitor(db);
    await c.walk(second);
    expect((await c.confirm(call)).location).toBe("/booking/success");
    expect((await bookingOf(first)).calendly_invitee_uri).toBe(call.inviteeUri);
    expect(await bookingOf(second)).toMatchObject({ calendly_invitee_uri: null, meeting_start_at: null });
  });

  it("with Calendly down, the booking is saved and acknowledged, promises no time, and the loop fills the time in later with backoff", async () => {
    const email = unique("down");
    const call = fake.schedule({ email, startAt: "2031-05-06T09:30:00Z" });
    fake.state.mode = "down";
    const v = bookingVisitor(db);
    await v.walk(email);
    const before = Date.now();
    expect((await v.confirm(call)).location).toBe("/booking/success");
    let b = await bookingOf(email);
    expect(b).toMatchObject({
      calendly_invitee_uri: call.inviteeUri,
      meeting_status: null,
      meeting_start_at: null,
      meeting_fetch_attempts: 1,
    });
    expect(b.meeting_fetch_error).toMatch(/503/);
    const next = Date.parse(b.meeting_fetch_next_at!);
    expect(next - before).toBeGreaterThanOrEqual(29_000);
    expect(next - Date.now()).toBeLessThanOrEqual(31_000);

    const [client] = await mailsTo(email);
    expect(client.text_body).toContain("Your call is booked in the calendar; we are still confirming its time.");
    expect(client.text_body).toContain(
      "As soon as the calendar confirms the time to us, we'll email you reminders 24 hours and 1 hour before the call.",
    );
    expect(client.attachments).toBeNull();

    // Not due yet: nothing is asked.
    fake.state.requests.length = 0;
    expect(await fillPendingMeetings(db(), calendlyApi(env()), new Date(next - 1000))).toBe(0);
    expect(fake.state.requests).toEqual([]);
    // Due, still down: the next read backs off further.
    expect(await fillPendingMeetings(db(), calendlyApi(env()), new Date(next + 1000))).toBe(1);
    b = await bookingOf(email);
    expect(b.meeting_fetch_attempts).toBe(2);
    const later = Date.parse(b.meeting_fetch_next_at!);
    expect(later - (next + 1000)).toBe(60_000);
    // Back up: the time is filled in and the reminders planned.
    fake.state.mode = "ok";
    expect(await fillPendingMeetings(db(), calendlyApi(env()), new Date(later))).toBe(1);
    b = await bookingOf(email);
    expect(b).toMatchObject({
      meeting_status: "scheduled",
      meeting_start_at: "2031-05-06T09:30:00.000Z",
      meeting_fetch_next_at: null,
      meeting_fetch_error: null,
    });
    const reminders = (await mailsTo(email)).filter((m) => m.kind !== "message");
    expect(reminders.map((r) => [r.kind, r.next_attempt_at])).toEqual([
      ["reminder_24h", "2031-05-05T09:30:00.000Z"],
      ["reminder_1h", "2031-05-06T08:30:00.000Z"],
    ]);
  });

  it("answers the visitor, giving up on its own after 3 s, when Calendly does not answer at all", async () => {
    const email = unique("hang");
    const call = fake.schedule({ email });
    fake.state.mode = "hang";
    const v = bookingVisitor(db);
    await v.walk(email);
    expect((await v.confirm(call)).location).toBe("/booking/success");
    const b = await bookingOf(email);
    expect(b.meeting_fetch_error).toMatch(/did not answer within 3000 ms/);
    expect(b.meeting_fetch_next_at).not.toBeNull();
    // Calendly was asked and never answered; the visitor was answered anyway because the server
    // gave up by itself: it closed each request unanswered, on its 3000 ms timeout (the error above
    // names it). That, not the clock of this test, is what "within about 3 seconds" stood for.
    expect(calls.length).toBeGreaterThan(0);
    await expect.poll(() => calls.filter((c) => !c.closedUnanswered), { timeout: 10_000 }).toEqual([]);
  });

  it("the success page shows the time in the visitor's zone with the .ics, reschedule and cancel links; the .ics is only for that visitor", async () => {
    const email = unique("success-page");
    const call = fake.schedule({ email, startAt: "2031-03-04T13:00:00Z", timezone: "America/Los_Angeles" });
    const v = bookingVisitor(db);
    await v.walk(email);
    await v.confirm(call);
    const get = (path: string, cookie = v.cookie) =>
      new Request(`http://localhost:3000${path}`, { headers: cookie ? { Cookie: cookie } : {} });
    const page = (await successLoader({ request: get("/booking/success"), params: {}, context: {} })) as unknown as {
      data: { call: Record<string, unknown> };
    };
    expect(page.data.call).toEqual({
      state: "scheduled",
      date: "Tuesday, March 4, 2031",
      time: "5:00 AM – 5:20 AM",
      zone: "America/Los_Angeles",
      zoneName: "Pacific Standard Time",
      startAt: "2031-03-04T13:00:00.000Z",
      joinUrl: call.event.location.join_url,
      rescheduleUrl: call.invitee.reschedule_url,
      cancelUrl: call.invitee.cancel_url,
      icsUrl: "/booking/success.ics",
      reminders: ["24 hours", "1 hour"],
    });
    const ics = await icsLoader({ request: get("/booking/success.ics"), params: {}, context: {} });
    expect(ics.status).toBe(200);
    expect(ics.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(ics.headers.get("Content-Disposition")).toBe('attachment; filename="consultation.ics"');
    expect(ics.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await ics.text();
    const b = await bookingOf(email);
    expect(body).toContain(`UID:booking-${b.id}@localhost`);
    expect(body).toContain("TRIGGER:-PT24H");
    expect(body).toContain("TRIGGER:-PT1H");
    expect(body).toContain("METHOD:PUBLISH");
    // Nobody else: no cookie, or another visitor's draft.
    expect((await icsLoader({ request: get("/booking/success.ics", ""), params: {}, context: {} })).status).toBe(404);
    const other = bookingVisitor(db);
    await other.post(1, {
      selectedPackage: "growth",
      name: "Eve",
      email: unique("eve"),
      company: "Eve Co",
      intent: "next",
    });
    const theirs = await icsLoader({ request: get("/booking/success.ics", other.cookie), params: {}, context: {} });
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain("BEGIN:VCALENDAR");
  });

  it("while the time is not known, the success page says so and offers no .ics", async () => {
    const email = unique("success-unknown");
    const call = fake.schedule({ email });
    fake.state.mode = "down";
    const v = bookingVisitor(db);
    await v.walk(email);
    await v.confirm(call);
    const request = new Request("http://localhost:3000/booking/success", { headers: { Cookie: v.cookie } });
    const page = (await successLoader({ request, params: {}, context: {} })) as unknown as {
      data: { call: Record<string, unknown> };
    };
    expect(page.data.call).toEqual({ state: "confirming" });
    const ics = await icsLoader({
      request: new Request("http://localhost:3000/booking/success.ics", { headers: { Cookie: v.cookie } }),
      params: {},
      context: {},
    });
    expect(ics.status).toBe(404);
    expect(await ics.text()).toMatch(/not known to us yet/);
  });

  it("a call booked for later today gets only the reminders still ahead, and the confirmation promises only those", async () => {
    for (const [hours, promise, kinds] of [
      [5, "We'll email you a reminder 1 hour before the call.", ["reminder_1h"]],
      [0.5, null, []],
    ] as const) {
      const email = unique(`soon-${hours}`);
      const call = fake.schedule({ email, startAt: new Date(Date.now() + hours * 3600_000).toISOString() });
      const v = bookingVisitor(db);
      await v.walk(email);
      await v.confirm(call);
      const mails = await mailsTo(email);
      expect(mails.filter((m) => m.kind !== "message").map((m) => m.kind)).toEqual(kinds);
      const client = mails.find((m) => m.kind === "message")!;
      if (promise) expect(client.text_body).toContain(promise);
      else expect(client.text_body).not.toMatch(/reminder/i);
      expect(client.text_body).not.toContain("24 hours");
    }
  });
});
