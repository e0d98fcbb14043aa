import { describe, expect, it } from "vitest";
import { db } from "../../server/db.server";
import { bookingStepView } from "../../server/http/booking-flow.server";
import { getStudio, saveSection } from "../../server/studio/studio.server";
import { defaultCalendar } from "#domain/calendar-settings";
import { bookingVisitor } from "../helpers/booking-visitor";
import { aBuiltinStudio, iso, slots, TAKEN, unique, UNAVAILABLE } from "../helpers/builtin-calendar";
import { feedPath, feedSecret, newFeedSecret } from "../../server/booking/owner-feed.server";
import { loader as feedLoader } from "../../app/routes/calendar.$file";

/**
 * Issue 43.4-43.6: step 6 with the built-in calendar, through the step's action as a browser
 * without JavaScript posts it: a time is a radio's value, checked again when the booking is saved.
 */

aBuiltinStudio();

/** The message a refused step shows at the slot, and its status. */
function refusedAt(res: unknown): { status: number; message: string | undefined } {
  const d = res as { init?: { status?: number }; data?: { error?: Record<string, string[] | null> } };
  return { status: d.init?.status ?? 200, message: d.data?.error?.slot?.[0] ?? undefined };
}

async function step6View(cookie: string, query = "") {
  return bookingStepView(
    db(),
    new Request(`http://localhost:3000/booking?step=6${query}`, { headers: { Cookie: cookie } }),
    await getStudio(db()),
  );
}

describe("the built-in calendar on step 6", () => {
  it("is a new data folder's calendar: step 6 lists free times, in the studio's zone by default", async () => {
    const { calendar } = await getStudio(db());
    expect(calendar.provider).toBe("builtin");
    expect(calendar.availability.timeZone).toBe("Europe/London");
    const v = bookingVisitor(db);
    await v.walk(unique("view"));
    const view = await step6View(v.cookie);
    expect(view.callPicker).not.toBeNull();
    const picker = view.callPicker!;
    expect(picker.timeZone).toBe("Europe/London");
    expect(picker.chosen).toBe(false);
    expect(picker.days.length).toBeGreaterThan(0);
    expect(picker.days.length).toBeLessThanOrEqual(5);
    const first = (await slots())[0];
    expect(picker.days[0].slots[0].start).toBe(iso(first.start));
    // Times are the studio's hours (09:00-17:00 London on weekdays).
    for (const day of picker.days)
      for (const s of day.slots) expect(s.label).toMatch(/^(9|10|11):[03]0 AM$|^(12|1|2|3|4):[03]0 PM$/);
    // Asked for another zone, the same instants are labelled there (New York is 5 or 4 hours behind).
    const ny = (await step6View(v.cookie, "&tz=America/New_York")).callPicker!;
    expect(ny.timeZone).toBe("America/New_York");
    expect(ny.chosen).toBe(true);
    expect(ny.days[0].slots[0].start).toBe(iso(first.start));
    // Five hours behind London in winter, four or five in summer: the same instant's wall time there.
    const inNewYork = new Intl.DateTimeFormat("en-US", {
      hour: "numeric",
      minute: "2-digit",
      timeZone: "America/New_York",
    }).format(first.start);
    expect(ny.days[0].slots[0].label).toBe(inNewYork);
    expect(ny.days[0].slots[0].label).not.toBe(picker.days[0].slots[0].label);
    expect(ny.days[0].slots[0].label).toMatch(/^([4-9]|1[01]):[03]0 AM$/);
    // A zone that is not one is ignored.
    expect((await step6View(v.cookie, "&tz=Mars/Base")).callPicker!.timeZone).toBe("Europe/London");
    // The later page starts where this one ends.
    if (picker.later) {
      const next = (await step6View(v.cookie, `&start=${picker.later}`)).callPicker!;
      expect(next.days[0].date).toBe(picker.later);
      expect(next.earlier).toBe(picker.days[0].date);
    }
  });

  it("the zone picked without JavaScript is kept in the draft", async () => {
    const v = bookingVisitor(db);
    await v.walk(unique("zone"));
    const res = await v.post(6, { intent: "timezone", callTimeZone: "Asia/Tokyo" });
    expect((res as Response).headers.get("Location")).toBe("/booking?step=6");
    expect((await step6View(v.cookie)).callPicker!.timeZone).toBe("Asia/Tokyo");
    await v.post(6, { intent: "timezone", callTimeZone: "Not/AZone" });
    expect((await step6View(v.cookie)).callPicker!.timeZone).toBe("Asia/Tokyo");
  });

  it("books the time picked: the call on the booking, its reminders, and the confirmation with the invitation", async () => {
    const email = unique("book");
    const v = bookingVisitor(db);
    await v.walk(email, "Grace Hopper");
    const [first] = await slots();
    expect(await v.confirm({ slot: iso(first.start) })).toMatchObject({ location: "/booking/success" });
    const booking = await db().selectFrom("bookings").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(booking).toMatchObject({
      meeting_provider: "builtin",
      meeting_status: "scheduled",
      meeting_start_at: iso(first.start),
      meeting_end_at: iso(first.start + 30 * 60_000),
      invitee_timezone: "Europe/London",
      meeting_join_url: null,
      calendly_invitee_uri: null,
    });
    const mails = await db().selectFrom("email_outbox").selectAll().where("to_email", "=", email).execute();
    const kinds = mails.map((m) => m.kind).sort();
    expect(kinds).toContain("reminder_1h");
    const confirmation = mails.find((m) => m.subject.startsWith("Your consultation request"))!;
    expect(confirmation.text_body).toContain("free 30-minute consultation");
    expect(confirmation.text_body).toContain("Your call:");
    const [ics] = JSON.parse(confirmation.attachments!) as { contentType: string; content: string }[];
    expect(ics.contentType).toBe("text/calendar; method=REQUEST");
    expect(ics.content).toContain("METHOD:REQUEST");
    expect(ics.content).toMatch(/ORGANIZER;CN=.*:mailto:/);
    expect(ics.content).toContain('ATTENDEE;CN="Grace Hopper"');
    expect(ics.content.match(/BEGIN:VALARM/g)).toHaveLength(2);
    // No video link saved: a phone call (the visitor gave no number, so the studio writes first).
    expect(ics.content).toContain("LOCATION:Phone call: the studio will email you first");
    // The time is gone for the next visitor.
    expect((await slots()).some((s) => s.start === first.start)).toBe(false);
  });

  it("with a video link saved, the call takes place there", async () => {
    const { calendar } = await getStudio(db());
    await saveSection(
      db(),
      "calendar",
      { ...calendar, meetingUrl: "https://meet.example.com/studio" },
      "owner@example.com",
    );
    try {
      const email = unique("video");
      const v = bookingVisitor(db);
      await v.walk(email);
      expect(await v.confirm()).toMatchObject({ location: "/booking/success" });
      const booking = await db()
        .selectFrom("bookings")
        .selectAll()
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      expect(booking.meeting_join_url).toBe("https://meet.example.com/studio");
    } finally {
      await saveSection(db(), "calendar", calendar, "owner@example.com");
    }
  });

  it("a time another visitor just took: 409 with the message, nothing saved, the answers kept", async () => {
    const [first] = await slots();
    const a = bookingVisitor(db);
    const b = bookingVisitor(db);
    const bEmail = unique("second");
    await a.walk(unique("first"));
    await b.walk(bEmail, "Second Visitor");
    expect(await a.confirm({ slot: iso(first.start) })).toMatchObject({ location: "/booking/success" });
    const refused = await b.post(6, { intent: "confirm", slot: iso(first.start) });
    expect(refusedAt(refused)).toEqual({ status: 409, message: TAKEN });
    expect(await db().selectFrom("bookings").select("id").where("email", "=", bEmail).execute()).toHaveLength(0);
    // The step again, with fresh times and every answer.
    const view = await step6View(b.cookie);
    expect(view.state.name).toBe("Second Visitor");
    expect(view.callPicker!.days.flatMap((d) => d.slots).some((s) => s.start === iso(first.start))).toBe(false);
    expect(await b.confirm()).toMatchObject({ location: "/booking/success" });
  });

  it("two confirms of one time at once make one booking", async () => {
    const [first] = await slots();
    const visitors = [bookingVisitor(db), bookingVisitor(db), bookingVisitor(db)];
    for (const v of visitors) await v.walk(unique("race"));
    const results = await Promise.all(visitors.map((v) => v.post(6, { intent: "confirm", slot: iso(first.start) })));
    const won = results.filter((r) => r instanceof Response && r.headers.get("Location") === "/booking/success");
    expect(won).toHaveLength(1);
    expect(results.filter((r) => refusedAt(r).message === TAKEN)).toHaveLength(2);
    const holders = await db()
      .selectFrom("bookings")
      .select("id")
      .where("meeting_start_at", "=", iso(first.start))
      .where("meeting_status", "=", "scheduled")
      .execute();
    expect(holders).toHaveLength(1);
  });

  it("refuses a time that was never offered, in the past, beyond the window, inside a busy time or forged, and none at all", async () => {
    const v = bookingVisitor(db);
    const email = unique("forged");
    await v.walk(email);
    const [first, second] = await slots();
    const refuse = async (slot: string) => refusedAt(await v.post(6, { intent: "confirm", slot }));
    expect(await refuse(iso(first.start + 7 * 60_000))).toEqual({ status: 400, message: UNAVAILABLE });
    expect(await refuse(iso(Date.now() - 86_400_000))).toEqual({ status: 400, message: UNAVAILABLE });
    expect(await refuse(iso(first.start + 400 * 86_400_000))).toEqual({ status: 400, message: UNAVAILABLE });
    expect(await refuse("not a date")).toEqual({ status: 400, message: "Please pick a time for your call" });
    expect(refusedAt(await v.post(6, { intent: "confirm" }))).toEqual({
      status: 400,
      message: "Please pick a time for your call",
    });
    // The owner's calendar says they are busy then: the time is not offered, and not taken.
    await db()
      .insertInto("calendar_sources")
      .values({
        id: "busy-test",
        kind: "ics",
        label: "Work",
        url: "https://calendar.example/feed.ics",
        busy: JSON.stringify([[second.start, second.end]]),
      })
      .execute();
    try {
      expect((await slots()).some((s) => s.start === second.start)).toBe(false);
      expect(await refuse(iso(second.start))).toEqual({ status: 400, message: UNAVAILABLE });
    } finally {
      await db().deleteFrom("calendar_sources").where("id", "=", "busy-test").execute();
    }
    expect(await db().selectFrom("bookings").select("id").where("email", "=", email).execute()).toHaveLength(0);
  });

  it("with no free time at all, the booking is confirmed without one and the studio writes", async () => {
    const { calendar } = await getStudio(db());
    const closed = defaultCalendar("Europe/London");
    closed.availability.weekly = { "1": [], "2": [], "3": [], "4": [], "5": [], "6": [], "7": [] };
    closed.availability.overrides = [{ date: "2020-01-01", ranges: [{ start: "09:00", end: "10:00" }] }];
    await saveSection(db(), "calendar", closed, "owner@example.com");
    try {
      const email = unique("closed");
      const v = bookingVisitor(db);
      await v.walk(email);
      expect((await step6View(v.cookie)).callPicker!.days).toEqual([]);
      expect(await v.confirm()).toMatchObject({ location: "/booking/success" });
      const booking = await db()
        .selectFrom("bookings")
        .selectAll()
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      expect(booking.meeting_start_at).toBeNull();
      const confirmation = await db()
        .selectFrom("email_outbox")
        .selectAll()
        .where("to_email", "=", email)
        .where("subject", "like", "Your consultation request%")
        .executeTakeFirstOrThrow();
      expect(confirmation.text_body).toContain("we will email you within one business day to find a time");
      expect(confirmation.text_body).not.toContain("Calendly");
    } finally {
      await saveSection(db(), "calendar", calendar, "owner@example.com");
    }
  });

  it("the database holds one scheduled built-in call per start (the unique index)", async () => {
    const start = "2031-03-03T10:00:00.000Z";
    const row = (id: string) => ({
      id,
      email: `${id}@example.com`,
      full_name: id,
      company_name: "Co",
      package_type: "essentials" as const,
      package_price: 1,
      package_name: "Essentials",
      total_amount: 1,
      project_description: "",
      project_goals: "[]",
      target_audience: "",
      meeting_provider: "builtin" as const,
      meeting_status: "scheduled" as const,
      meeting_start_at: start,
      meeting_end_at: "2031-03-03T10:30:00.000Z",
    });
    await db().insertInto("bookings").values(row("unique-a")).execute();
    await expect(db().insertInto("bookings").values(row("unique-b")).execute()).rejects.toThrow(/UNIQUE/);
    // A cancelled call frees its start.
    await db().updateTable("bookings").set({ meeting_status: "cancelled" }).where("id", "=", "unique-a").execute();
    await db().insertInto("bookings").values(row("unique-b")).execute();
  });

  it("the owner's feed lists the calls at its secret address, and a new address retires the old one", async () => {
    const email = unique("feed");
    const v = bookingVisitor(db);
    await v.walk(email, "Feed Client");
    expect(await v.confirm()).toMatchObject({ location: "/booking/success" });
    const booking = await db().selectFrom("bookings").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    const get = (file: string) =>
      feedLoader({
        params: { file },
        request: new Request(`http://localhost:3000/calendar/${file}`),
        context: {},
      } as never) as Promise<Response>;
    const secret = await feedSecret(db());
    expect(await feedSecret(db())).toBe(secret);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await get(feedPath(secret).slice("/calendar/".length));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const text = await res.text();
    expect(text).toContain("METHOD:PUBLISH");
    expect(text).toContain(`UID:booking-${booking.id}@`);
    expect(text).toContain("SUMMARY:Consultation: Feed Client (Analytical Engines)");
    expect(text).toContain(`DTSTART:${booking.meeting_start_at!.replace(/[-:]/g, "").replace(/\.\d{3}/, "")}`);
    for (const wrong of [
      "nope.ics",
      `${secret}x.ics`,
      secret,
      `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}.ics`,
    ])
      expect((await get(wrong)).status).toBe(404);
    const fresh = await newFeedSecret(db());
    expect(fresh).not.toBe(secret);
    expect((await get(`${secret}.ics`)).status).toBe(404);
    expect((await get(`${fresh}.ics`)).status).toBe(200);
  });
});
