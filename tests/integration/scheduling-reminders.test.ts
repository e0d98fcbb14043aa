import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyMeeting, markMeeting } from "../../server/booking/meeting.server";
import type { Meeting } from "../../server/booking/calendly.server";
import { createDb } from "../../server/db/db.server";
import { retryPendingMail, type MailSettings } from "../../server/email/mailer.server";
import { freshDb, type TestDb } from "../helpers/db";

// Issue 18.4: reminders 24 h and 1 h before the call, from the outbox, on a clock the test moves.
type Sent = { to: string; subject: string; text: string; html: string };
const sent: Sent[] = [];
let sendgrid: http.Server;
let t: TestDb;
let settings: MailSettings;

beforeAll(async () => {
  sendgrid = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const m = JSON.parse(body) as {
        personalizations: { to: { email: string }[] }[];
        subject: string;
        content: { type: string; value: string }[];
      };
      sent.push({
        to: m.personalizations[0].to[0].email,
        subject: m.subject,
        text: m.content.find((c) => c.type === "text/plain")?.value ?? "",
        html: m.content.find((c) => c.type === "text/html")?.value ?? "",
      });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => sendgrid.listen(0, "127.0.0.1", r));
  settings = {
    SENDGRID_API_BASE: `http://127.0.0.1:${(sendgrid.address() as AddressInfo).port}`,
    SENDGRID_API_KEY: "SG.test",
    MAIL_FROM: "Studio Rowan <hello@studiorowan.example>",
  };
  t = await freshDb();
});

afterAll(async () => {
  sendgrid.close();
  await t.close();
});

beforeEach(() => {
  sent.length = 0;
});

const HOUR = 60 * 60 * 1000;
const at = (iso: string, deltaMs = 0) => new Date(Date.parse(iso) + deltaMs);

async function newBooking(email: string, createdAt = "2031-01-01T00:00:00.000Z") {
  const id = crypto.randomUUID();
  await t.db
    .insertInto("bookings")
    .values({
      id,
      user_id: null,
      email,
      full_name: "Ada Lovelace",
      company_name: "Engines",
      phone: null,
      package_type: "growth",
      package_price: 850000,
      total_amount: 850000,
      website_url: null,
      desired_start_date: null,
      source: null,
      created_at: createdAt,
    })
    .execute();
  return id;
}

function meeting(startAt: string, over: Partial<Meeting> = {}): Meeting {
  const u = crypto.randomBytes(6).toString("hex").toUpperCase();
  return {
    eventUri: `https://api.calendly.com/scheduled_events/E${u}`,
    inviteeUri: `https://api.calendly.com/scheduled_events/E${u}/invitees/I${u}`,
    status: "scheduled",
    startAt,
    endAt: new Date(Date.parse(startAt) + 20 * 60_000).toISOString(),
    timezone: "Europe/Berlin",
    joinUrl: `https://meet.google.com/j-${u.toLowerCase()}`,
    cancelUrl: `https://calendly.com/cancellations/I${u}`,
    rescheduleUrl: `https://calendly.com/reschedulings/I${u}`,
    email: "",
    newInviteeUri: null,
    ...over,
  };
}

async function reminders(bookingId: string) {
  return t.db
    .selectFrom("email_outbox")
    .select(["kind", "status", "next_attempt_at", "expires_at", "attempts", "sent_at"])
    .where("booking_id", "=", bookingId)
    .orderBy("id")
    .execute();
}

/** The server's loop, run at each of `times` (as every 5 s would). */
async function loopAt(...times: Date[]) {
  for (const now of times) await retryPendingMail(t.db, settings, now, 1000);
}

describe("reminders", () => {
  it("go out 24 hours and 1 hour before the start, once each, with the time, join link and reschedule link", async () => {
    const email = "remind@example.com";
    const id = await newBooking(email);
    const m = meeting("2031-03-04T13:00:00.000Z");
    await applyMeeting(t.db, id, m, at("2031-03-01T10:00:00Z"));
    expect((await reminders(id)).map((r) => [r.kind, r.status, r.next_attempt_at, r.expires_at])).toEqual([
      ["reminder_24h", "pending", "2031-03-03T13:00:00.000Z", "2031-03-04T12:00:00.000Z"],
      ["reminder_1h", "pending", "2031-03-04T12:00:00.000Z", "2031-03-04T13:00:00.000Z"],
    ]);

    await loopAt(at("2031-03-03T13:00:00Z", -1000));
    expect(sent).toEqual([]);
    await loopAt(at("2031-03-03T13:00:00Z"), at("2031-03-03T13:00:05Z"), at("2031-03-03T18:00:00Z"));
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe(email);
    expect(sent[0].subject).toBe(
      "Reminder: your consultation with Studio Rowan is in 24 hours (Tuesday, March 4, 2031)",
    );
    expect(sent[0].text).toContain(
      "When: Tuesday, March 4, 2031, 2:00 PM – 2:20 PM (Central European Standard Time, Europe/Berlin)",
    );
    expect(sent[0].text).toContain(`Join the call: ${m.joinUrl}`);
    expect(sent[0].text).toContain(`Can't make it? Reschedule: ${m.rescheduleUrl}`);
    expect(sent[0].html).toContain(`href="${m.rescheduleUrl}"`);

    await loopAt(at("2031-03-04T12:00:00Z", -1000));
    expect(sent).toHaveLength(1);
    await loopAt(at("2031-03-04T12:00:00Z"), at("2031-03-04T12:00:05Z"), at("2031-03-04T12:30:00Z"));
    expect(sent).toHaveLength(2);
    expect(sent[1].subject).toBe("Starting in 1 hour: your consultation with Studio Rowan");
    expect(sent[1].text).toContain(`Join the call: ${m.joinUrl}`);

    // A restart (a new connection to the same file, the loop from scratch): nothing goes again.
    const { db: again } = createDb(t.file);
    await retryPendingMail(again, settings, at("2031-03-04T12:59:00Z"), 1000);
    await retryPendingMail(again, settings, at("2031-03-05T00:00:00Z"), 1000);
    await again.destroy();
    expect(sent).toHaveLength(2);
    expect((await reminders(id)).map((r) => [r.kind, r.status, r.attempts, r.sent_at])).toEqual([
      ["reminder_24h", "sent", 1, "2031-03-03T13:00:00.000Z"],
      ["reminder_1h", "sent", 1, "2031-03-04T12:00:00.000Z"],
    ]);
  });

  it("two loops at once (or a loop and a restarted server) send each reminder once", async () => {
    const id = await newBooking("twice@example.com");
    await applyMeeting(t.db, id, meeting("2031-04-04T13:00:00.000Z"), at("2031-04-01T00:00:00Z"));
    const { db: second } = createDb(t.file);
    const due = at("2031-04-03T13:00:01Z");
    await Promise.all([
      retryPendingMail(t.db, settings, due, 1000),
      retryPendingMail(second, settings, due, 1000),
      retryPendingMail(t.db, settings, due, 1000),
    ]);
    await second.destroy();
    expect(sent.filter((s) => s.to === "twice@example.com")).toHaveLength(1);
  });

  it("are not created when their time has already passed at booking", async () => {
    const start = "2031-05-05T10:00:00.000Z";
    const cases: [string, number, string[]][] = [
      ["far@example.com", -48 * HOUR, ["reminder_24h", "reminder_1h"]],
      ["tomorrow@example.com", -23 * HOUR, ["reminder_1h"]],
      ["soon@example.com", -HOUR + 60_000, []],
      ["edge@example.com", -HOUR, []],
    ];
    for (const [email, bookedBefore, kinds] of cases) {
      const id = await newBooking(email);
      await applyMeeting(t.db, id, meeting(start), at(start, bookedBefore));
      expect(
        (await reminders(id)).map((r) => r.kind),
        email,
      ).toEqual(kinds);
    }
  });

  it("a server down through a reminder's time sends it late only while it is still useful", async () => {
    const start = "2031-06-06T10:00:00.000Z";
    const late = await newBooking("late@example.com");
    await applyMeeting(t.db, late, meeting(start), at(start, -72 * HOUR));
    // Back 30 minutes before the call: the 24 h reminder is void (the 1 h one is due), the 1 h goes.
    await loopAt(at(start, -30 * 60_000));
    expect((await reminders(late)).map((r) => [r.kind, r.status])).toEqual([
      ["reminder_24h", "cancelled"],
      ["reminder_1h", "sent"],
    ]);
    expect(sent.map((s) => s.subject)).toEqual(["Starting in 1 hour: your consultation with Studio Rowan"]);

    const after = await newBooking("after@example.com");
    await applyMeeting(t.db, after, meeting(start), at(start, -72 * HOUR));
    await loopAt(at(start, 5 * 60_000));
    expect((await reminders(after)).map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect(sent).toHaveLength(1);
  });

  it("move with the call when it is rescheduled, and stop when it is cancelled", async () => {
    const id = await newBooking("moves@example.com");
    const first = meeting("2031-07-07T10:00:00.000Z");
    await applyMeeting(t.db, id, first, at("2031-07-01T00:00:00Z"));
    // The 24 h reminder went; then the call moves two days later.
    await loopAt(at("2031-07-06T10:00:00Z"));
    expect(sent).toHaveLength(1);
    await applyMeeting(
      t.db,
      id,
      meeting("2031-07-09T15:00:00.000Z", {
        inviteeUri: first.inviteeUri.replace(/I(\w+)$/, "J$1"),
        eventUri: first.eventUri,
      }),
      at("2031-07-06T12:00:00Z"),
    );
    expect((await reminders(id)).map((r) => [r.kind, r.status, r.next_attempt_at])).toEqual([
      ["reminder_24h", "sent", null],
      ["reminder_1h", "cancelled", null],
      ["reminder_24h", "pending", "2031-07-08T15:00:00.000Z"],
      ["reminder_1h", "pending", "2031-07-09T14:00:00.000Z"],
    ]);
    // Nothing at the old time.
    await loopAt(at("2031-07-07T09:00:00Z"), at("2031-07-07T09:59:00Z"));
    expect(sent).toHaveLength(1);
    await loopAt(at("2031-07-08T15:00:00Z"));
    expect(sent).toHaveLength(2);
    expect(sent[1].text).toContain("Wednesday, July 9, 2031, 5:00 PM – 5:20 PM");
    // Cancelled in the calendar: the last one never goes.
    await markMeeting(t.db, id, "cancelled", at("2031-07-09T08:00:00Z"));
    await loopAt(at("2031-07-09T14:00:00Z"), at("2031-07-09T14:30:00Z"));
    expect(sent).toHaveLength(2);
    expect((await reminders(id)).at(-1)).toMatchObject({ kind: "reminder_1h", status: "cancelled" });
  });

  it("go with the booking when it is deleted", async () => {
    const id = await newBooking("deleted@example.com");
    await applyMeeting(t.db, id, meeting("2031-08-08T10:00:00.000Z"), at("2031-08-01T00:00:00Z"));
    await t.db.deleteFrom("bookings").where("id", "=", id).execute();
    expect(await reminders(id)).toEqual([]);
    await loopAt(at("2031-08-08T09:30:00Z"));
    expect(sent).toEqual([]);
  });
});
