import { beforeAll, describe, expect, it } from "vitest";
import { sampleIdentity } from "#domain/sample/site";
import { applyMeeting } from "../../server/booking/meeting.server";
import { successCallFile } from "../../server/booking/success.server";
import type { Draft } from "../../server/booking/draft.server";
import { env } from "../../server/env.server";
import { bookingRows } from "../helpers/bookings";
import { freshDb } from "../helpers/db";

// Issue 41.6: one way to the studio's address for every mail. A studio that set STUDIO_EMAIL and
// kept the sample's contact address is reached at STUDIO_EMAIL, in the call reminders too (they
// read the studio without being handed the env).
const OWNER = "owner@my-studio.test";

beforeAll(() => {
  // Read once per process by env(); this file runs in its own process.
  process.env.STUDIO_EMAIL = OWNER;
  expect(env().STUDIO_EMAIL).toBe(OWNER);
});

describe("the studio's address in mail", () => {
  it("call reminders sign with STUDIO_EMAIL, never the sample's address", async () => {
    const t = await freshDb();
    const [booking] = bookingRows(1);
    const id = booking.id;
    await t.db.insertInto("bookings").values(booking).execute();
    const start = "2031-03-04T13:00:00.000Z";
    await applyMeeting(
      t.db,
      id,
      {
        eventUri: "https://api.calendly.com/scheduled_events/EADDRESS",
        inviteeUri: "https://api.calendly.com/scheduled_events/EADDRESS/invitees/IADDRESS",
        status: "scheduled",
        startAt: start,
        endAt: "2031-03-04T13:20:00.000Z",
        timezone: "Europe/Berlin",
        joinUrl: "https://meet.google.com/address",
        cancelUrl: "https://calendly.com/cancellations/IADDRESS",
        rescheduleUrl: "https://calendly.com/reschedulings/IADDRESS",
        email: "",
        newInviteeUri: null,
      },
      new Date("2031-03-01T10:00:00Z"),
    );
    const queued = await t.db
      .selectFrom("email_outbox")
      .select(["kind", "text_body", "html_body"])
      .where("booking_id", "=", id)
      .where("kind", "in", ["reminder_24h", "reminder_1h"])
      .execute();
    expect(queued.map((q) => q.kind).sort()).toEqual(["reminder_1h", "reminder_24h"]);
    for (const q of queued) {
      expect(q.html_body).toContain(OWNER);
      expect(`${q.text_body}${q.html_body}`).not.toContain(sampleIdentity.contactEmail);
    }
    // The success page's calendar file reads the studio the same way.
    const draft: Draft = {
      id: "d",
      bookingId: id,
      state: {} as Draft["state"],
      completed: [],
      files: [],
      confirmedAt: new Date().toISOString(),
    };
    const file = await successCallFile(t.db, draft);
    expect("ics" in file && file.ics).toContain("BEGIN:VCALENDAR");
    await t.close();
  });
});
