import { beforeAll, describe, expect, it } from "vitest";
import { handleCalendlyWebhook, verifyCalendlySignature } from "../../server/http/calendly-webhook.server";
import { db } from "../../server/db.server";
import { migrateToLatest } from "../../server/db/db.server";
import { retryPendingMail } from "../../server/email/mailer.server";
import { env } from "../../server/env.server";
import { createCalendlyFake, signCalendly } from "../helpers/calendly-fake.mjs";
import { bookingVisitor } from "../helpers/booking-visitor";

// Issue 18.2: POST /webhooks/calendly, signed; no API token here, so webhooks are the only source.
const KEY = "whsk-test-signing-key";
const fake = createCalendlyFake();

beforeAll(async () => {
  process.env.CALENDLY_WEBHOOK_SIGNING_KEY = KEY;
  // A studio that books through Calendly (it keeps it until the owner switches: issue 43.1).
  process.env.CALENDLY_URL = "https://calendly.com/studio-test/consultation";
  delete process.env.CALENDLY_TOKEN;
  await migrateToLatest(db());
});

const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function post(body: string, signature: string | null, now = new Date()) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature !== null) headers["Calendly-Webhook-Signature"] = signature;
  return handleCalendlyWebhook(
    db(),
    new Request("http://localhost:3000/webhooks/calendly", { method: "POST", body, headers }),
    now,
  );
}

/** Calendly delivering a webhook now (signed now), or at `now`. */
async function deliver(kind: "invitee.created" | "invitee.canceled", inviteeUri: string, now = new Date()) {
  const body = fake.webhookBody(kind, inviteeUri);
  const res = await post(body, signCalendly(body, KEY, seconds(now)), now);
  return { status: res.status, text: await res.text(), body };
}

async function bookingOf(email: string) {
  return db().selectFrom("bookings").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
}

async function remindersOf(email: string) {
  return db()
    .selectFrom("email_outbox")
    .select(["id", "kind", "status", "next_attempt_at", "expires_at", "text_body"])
    .where("to_email", "=", email)
    .where("kind", "!=", "message")
    .orderBy("id")
    .execute();
}

/** A booking confirmed without the calendar's message (lost, or "Confirm without scheduling now"). */
async function bookedWithoutMessage(email: string) {
  const v = bookingVisitor(db);
  await v.walk(email);
  expect((await v.confirm()).location).toBe("/booking/success");
}

describe("the signature", () => {
  const body = '{"event":"invitee.created","payload":{}}';
  const now = new Date("2031-01-01T12:00:00Z");
  it("is HMAC-SHA256 of `t.rawBody` with the signing key, within 3 minutes either way", () => {
    expect(verifyCalendlySignature(signCalendly(body, KEY, seconds(now)), body, KEY, now)).toBe(true);
    expect(verifyCalendlySignature(signCalendly(body, KEY, seconds(now) - 180), body, KEY, now)).toBe(true);
    expect(verifyCalendlySignature(signCalendly(body, KEY, seconds(now) - 181), body, KEY, now)).toBe(false);
    expect(verifyCalendlySignature(signCalendly(body, KEY, seconds(now) + 181), body, KEY, now)).toBe(false);
    expect(verifyCalendlySignature(signCalendly(body, "another key", seconds(now)), body, KEY, now)).toBe(false);
    expect(verifyCalendlySignature(signCalendly(body, KEY, seconds(now)), body + " ", KEY, now)).toBe(false);
    const good = signCalendly(body, KEY, seconds(now));
    for (const bad of [
      "",
      "t=,v1=",
      good.replace("t=", "x="),
      good.split(",")[0],
      `${good.split(",")[1]}`,
      good.slice(0, -2),
      `${good}zz`,
      "t=abc,v1=00",
      `v1=${"0".repeat(64)},t=${seconds(now)}`,
    ]) {
      expect(verifyCalendlySignature(bad, body, KEY, now), bad).toBe(false);
    }
    // Several v1 values (a key being rotated): one valid is enough.
    expect(
      verifyCalendlySignature(`t=${seconds(now)},v1=${"0".repeat(64)},${good.split(",")[1]}`, body, KEY, now),
    ).toBe(true);
  });

  it("bad, stale or missing: 400, and nothing is recorded", async () => {
    const email = unique("unsigned");
    const call = fake.schedule({ email });
    const body = fake.webhookBody("invitee.created", call.inviteeUri);
    const now = new Date();
    for (const signature of [
      null,
      "",
      "t=1,v1=zz",
      signCalendly(body, "wrong", seconds(now)),
      signCalendly(body, KEY, seconds(now) - 181),
      signCalendly(body, KEY, seconds(now) + 600),
    ]) {
      const res = await post(body, signature, now);
      expect(res.status, String(signature)).toBe(400);
    }
    expect(
      await db()
        .selectFrom("calendly_webhook_events")
        .select("id")
        .where("invitee_uri", "=", call.inviteeUri)
        .execute(),
    ).toEqual([]);
    // A signed body that is not JSON, or not an invitee webhook: 400 too.
    for (const junk of [
      "not json",
      '{"event":"invitee.created"}',
      '{"event":"invitee.created","payload":{"uri":"https://evil.example/x"}}',
    ]) {
      expect((await post(junk, signCalendly(junk, KEY, seconds(now)), now)).status).toBe(400);
    }
    // Another event type, signed: acknowledged and ignored.
    const other = '{"event":"routing_form_submission.created","payload":{}}';
    expect((await post(other, signCalendly(other, KEY, seconds(now)), now)).status).toBe(200);
  });
});

describe("invitee.created", () => {
  it("fills in the call of a booking whose browser message was lost (same email, no call yet), and plans its reminders", async () => {
    const email = unique("lost-message");
    await bookedWithoutMessage(email);
    const call = fake.schedule({
      email: email.toUpperCase(),
      startAt: "2031-06-10T15:00:00Z",
      timezone: "America/Chicago",
    });
    const r = await deliver("invitee.created", call.inviteeUri);
    expect(r).toMatchObject({ status: 200, text: "call updated" });
    const b = await bookingOf(email);
    expect(b).toMatchObject({
      calendly_invitee_uri: call.inviteeUri,
      calendly_event_uri: call.eventUri,
      meeting_status: "scheduled",
      meeting_start_at: "2031-06-10T15:00:00.000Z",
      meeting_end_at: "2031-06-10T15:20:00.000Z",
      invitee_timezone: "America/Chicago",
      meeting_join_url: call.event.location.join_url,
      meeting_reschedule_url: call.invitee.reschedule_url,
    });
    expect((await remindersOf(email)).map((m) => [m.kind, m.status, m.next_attempt_at])).toEqual([
      ["reminder_24h", "pending", "2031-06-09T15:00:00.000Z"],
      ["reminder_1h", "pending", "2031-06-10T14:00:00.000Z"],
    ]);
    const event = await db()
      .selectFrom("calendly_webhook_events")
      .selectAll()
      .where("invitee_uri", "=", call.inviteeUri)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      id: `invitee.created:${call.inviteeUri}`,
      booking_id: b.id,
      outcome: "call updated",
    });
  });

  it("a replay changes nothing: 200, the same rows", async () => {
    const email = unique("replay");
    await bookedWithoutMessage(email);
    const call = fake.schedule({ email, startAt: "2031-06-11T15:00:00Z" });
    const created = await deliver("invitee.created", call.inviteeUri);
    await deliver("invitee.canceled", fake.cancel(call.inviteeUri).uri);
    const cancelled = { booking: await bookingOf(email), reminders: await remindersOf(email) };
    expect(cancelled.booking.meeting_status).toBe("cancelled");
    // Calendly retries the first delivery (the same body, signed again): nothing moves back.
    const replay = await post(created.body, signCalendly(created.body, KEY));
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe("duplicate");
    expect(await bookingOf(email)).toEqual(cancelled.booking);
    expect(await remindersOf(email)).toEqual(cancelled.reminders);
    const replayCancel = await deliver("invitee.canceled", call.inviteeUri);
    expect(replayCancel).toMatchObject({ status: 200, text: "duplicate" });
    expect(await bookingOf(email)).toEqual(cancelled.booking);
  });

  it("arriving before the booking exists, it is kept and given to the booking confirmed by the same email", async () => {
    const email = unique("webhook-first");
    const call = fake.schedule({ email, startAt: "2031-07-01T08:00:00Z", timezone: "Asia/Tokyo" });
    expect(await deliver("invitee.created", call.inviteeUri)).toMatchObject({
      status: 200,
      text: "unmatched: kept for a booking confirmed later by this email",
    });
    await bookedWithoutMessage(email);
    const b = await bookingOf(email);
    expect(b).toMatchObject({
      calendly_invitee_uri: call.inviteeUri,
      meeting_status: "scheduled",
      meeting_start_at: "2031-07-01T08:00:00.000Z",
      invitee_timezone: "Asia/Tokyo",
    });
    const client = await db()
      .selectFrom("email_outbox")
      .selectAll()
      .where("to_email", "=", email)
      .where("kind", "=", "message")
      .executeTakeFirstOrThrow();
    expect(client.text_body).toContain(
      "Your call: Tuesday, July 1, 2031, 5:00 PM – 5:20 PM (Japan Standard Time, Asia/Tokyo)",
    );
    expect(JSON.parse(client.attachments!)[0].contentType).toBe("text/calendar; method=REQUEST");
    const event = await db()
      .selectFrom("calendly_webhook_events")
      .selectAll()
      .where("invitee_uri", "=", call.inviteeUri)
      .executeTakeFirstOrThrow();
    expect(event.booking_id).toBe(b.id);
  });

  it("never takes a booking that already has a call, nor one older than 7 days", async () => {
    const email = unique("no-steal");
    await bookedWithoutMessage(email);
    const first = fake.schedule({ email, startAt: "2031-08-01T08:00:00Z" });
    await deliver("invitee.created", first.inviteeUri);
    const second = fake.schedule({ email, startAt: "2031-08-02T08:00:00Z" });
    expect((await deliver("invitee.created", second.inviteeUri)).text).toMatch(/^unmatched/);
    expect((await bookingOf(email)).meeting_start_at).toBe("2031-08-01T08:00:00.000Z");

    const old = unique("old-booking");
    await bookedWithoutMessage(old);
    await db()
      .updateTable("bookings")
      .set({ created_at: new Date(Date.now() - 8 * 86400_000).toISOString() })
      .where("email", "=", old)
      .execute();
    const late = fake.schedule({ email: old });
    expect((await deliver("invitee.created", late.inviteeUri)).text).toMatch(/^unmatched/);
    expect((await bookingOf(old)).meeting_status).toBeNull();
  });
});

describe("invitee.canceled", () => {
  it("marks the call cancelled and its reminders are never sent", async () => {
    const email = unique("cancel");
    await bookedWithoutMessage(email);
    const call = fake.schedule({ email, startAt: "2031-09-01T10:00:00Z" });
    await deliver("invitee.created", call.inviteeUri);
    expect((await remindersOf(email)).map((m) => m.status)).toEqual(["pending", "pending"]);
    const seq = (await bookingOf(email)).meeting_sequence;
    expect(await deliver("invitee.canceled", fake.cancel(call.inviteeUri).uri)).toMatchObject({
      status: 200,
      text: "call cancelled",
    });
    const b = await bookingOf(email);
    expect(b).toMatchObject({
      meeting_status: "cancelled",
      meeting_start_at: "2031-09-01T10:00:00.000Z",
      meeting_sequence: seq + 1,
      status: "pending",
    });
    expect((await remindersOf(email)).map((m) => m.status)).toEqual(["cancelled", "cancelled"]);
    await retryPendingMail(db(), env(), new Date("2031-09-01T09:30:00Z"), 1000);
    expect((await remindersOf(email)).map((m) => m.status)).toEqual(["cancelled", "cancelled"]);
  });

  it("a reschedule moves the call and its reminders, whichever of the two webhooks comes first", async () => {
    for (const order of ["canceled first", "created first"] as const) {
      const email = unique("reschedule");
      await bookedWithoutMessage(email);
      const call = fake.schedule({ email, startAt: "2031-10-01T10:00:00Z" });
      await deliver("invitee.created", call.inviteeUri);
      const moved = fake.reschedule(call.inviteeUri, "2031-10-03T16:30:00Z");
      if (order === "canceled first") {
        expect((await deliver("invitee.canceled", call.inviteeUri)).text).toBe("call being rescheduled");
        expect(await bookingOf(email)).toMatchObject({ meeting_status: "rescheduled" });
        expect((await remindersOf(email)).every((m) => m.status === "cancelled")).toBe(true);
        expect((await deliver("invitee.created", moved.inviteeUri)).text).toBe("call updated");
      } else {
        expect((await deliver("invitee.created", moved.inviteeUri)).text).toBe("call updated");
        expect((await deliver("invitee.canceled", call.inviteeUri)).text).toMatch(/^no booking holds this invitee/);
      }
      const b = await bookingOf(email);
      expect(b, order).toMatchObject({
        meeting_status: "scheduled",
        calendly_invitee_uri: moved.inviteeUri,
        meeting_start_at: "2031-10-03T16:30:00.000Z",
      });
      // The .ics sequence grew with each change (cancelled-as-rescheduled, then moved).
      expect(b.meeting_sequence, order).toBe(order === "canceled first" ? 2 : 1);
      const reminders = await remindersOf(email);
      expect(
        reminders.filter((m) => m.status === "pending").map((m) => [m.kind, m.next_attempt_at]),
        order,
      ).toEqual([
        ["reminder_24h", "2031-10-02T16:30:00.000Z"],
        ["reminder_1h", "2031-10-03T15:30:00.000Z"],
      ]);
      expect(reminders.filter((m) => m.status === "cancelled")).toHaveLength(2);
    }
  });
});
