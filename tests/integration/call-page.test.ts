import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";
import { callPage, callPageAction, PICK_A_NEW_TIME } from "../../server/http/call-page.server";
import { bookingVisitor } from "../helpers/booking-visitor";
import { aBuiltinStudio, iso, slots, TAKEN, unique, UNAVAILABLE } from "../helpers/builtin-calendar";
import { grantAdmin, rolesOf } from "../../server/auth/users.server";
import { createCaller } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";

/**
 * Issue 43.7: a built-in call moved or cancelled by its client on /call/<token>, the link in its
 * confirmation, as a browser without JavaScript posts the page's forms.
 */

aBuiltinStudio();

/** A visitor who booked the first free time: their email, booking and call page's token. */
async function booked(what: string) {
  const email = unique(what);
  const v = bookingVisitor(db);
  await v.walk(email, "Moving Client");
  expect(await v.confirm()).toMatchObject({ location: "/booking/success" });
  const booking = await db().selectFrom("bookings").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
  const link = booking.meeting_reschedule_url!;
  expect(link.startsWith(`${env().APP_URL}/call/`)).toBe(true);
  expect(booking.meeting_cancel_url).toBe(link);
  return { email, booking, token: decodeURIComponent(link.slice(link.lastIndexOf("/") + 1)) };
}
const page = (token: string, query = "") =>
  callPage(db(), token, new Request(`http://localhost:3000/call/${token}${query}`));
const post = (token: string, fields: Record<string, string>) =>
  callPageAction(
    db(),
    token,
    new Request(`http://localhost:3000/call/${token}`, { method: "POST", body: new URLSearchParams(fields) }),
    `test-${Math.random()}`,
  );
const location = (res: unknown) => (res instanceof Response ? res.headers.get("Location") : null);
const refusal = (res: unknown) => {
  const d = res as { init?: { status?: number }; data?: { slotError?: string; error?: string } };
  return { status: d.init?.status ?? 200, message: d.data?.slotError ?? d.data?.error };
};
const mailsTo = (to: string) =>
  db().selectFrom("email_outbox").selectAll().where("to_email", "=", to).orderBy("id").execute();

/** Moves a booking's call to `hours` from now (inside the clients' cut-off); its new start. */
async function startsIn(hours: number, bookingId: string): Promise<Date> {
  const soon = new Date(Date.now() + hours * 3_600_000);
  soon.setUTCSeconds(0, 0);
  await db()
    .updateTable("bookings")
    .set({
      meeting_start_at: soon.toISOString(),
      meeting_end_at: new Date(soon.getTime() + 30 * 60_000).toISOString(),
    })
    .where("id", "=", bookingId)
    .execute();
  return soon;
}

describe("the client's own page, /call/<token>", () => {
  it("the confirmation links to it; another token, or a Calendly booking's, is 404", async () => {
    const { email, token, booking } = await booked("link");
    const [confirmation] = await mailsTo(email);
    expect(confirmation.text_body).toContain(booking.meeting_reschedule_url!);
    const view = await page(token);
    expect(view.status).toBe("scheduled");
    expect(view.locked).toBeNull();
    expect(view.picker!.timeZone).toBe("Europe/London");
    for (const bad of ["nope", `${booking.id}.AAAA`, `${token}x`, token.replace(booking.id, crypto.randomUUID())])
      await expect(page(bad)).rejects.toMatchObject({ init: { status: 404 } });
    // A call booked through Calendly is changed from Calendly's own email, not here.
    await db().updateTable("bookings").set({ meeting_provider: "calendly" }).where("id", "=", booking.id).execute();
    await expect(page(token)).rejects.toMatchObject({ init: { status: 404 } });
    await db().updateTable("bookings").set({ meeting_provider: "builtin" }).where("id", "=", booking.id).execute();
  });

  it("moves the call to another free time: the new time, SEQUENCE 1, both sides told, the old time free again", async () => {
    const { email, token, booking } = await booked("move");
    const before = Date.parse(booking.meeting_start_at!);
    const choices = (await page(token)).picker!.days.flatMap((d) => d.slots.map((x) => x.start));
    // Its own time is not offered to move to.
    expect(choices).not.toContain(booking.meeting_start_at);
    const target = choices.find((x) => Date.parse(x) > before + 3 * 3_600_000)!;
    expect(location(await post(token, { intent: "move", slot: target, callTimeZone: "Asia/Tokyo" }))).toBe(
      `/call/${encodeURIComponent(token)}?done=moved`,
    );
    const moved = await db().selectFrom("bookings").selectAll().where("id", "=", booking.id).executeTakeFirstOrThrow();
    expect(moved).toMatchObject({
      meeting_start_at: target,
      meeting_sequence: 1,
      invitee_timezone: "Asia/Tokyo",
      meeting_status: "scheduled",
    });
    const mails = await mailsTo(email);
    const notice = mails.find((m) => m.subject.startsWith("Your call with"))!;
    expect(notice.subject).toContain("has moved");
    const [ics] = JSON.parse(notice.attachments!) as { contentType: string; content: string }[];
    expect(ics.contentType).toBe("text/calendar; method=REQUEST");
    expect(ics.content).toContain("SEQUENCE:1");
    expect(ics.content).toContain(`UID:booking-${booking.id}@`);
    const pending = mails.filter((m) => m.kind === "reminder_1h" && m.status === "pending");
    expect(pending.length).toBeLessThanOrEqual(1);
    const studioMail = await db()
      .selectFrom("email_outbox")
      .selectAll()
      .where("subject", "like", "Call moved: Moving Client%")
      .execute();
    expect(studioMail.length).toBeGreaterThan(0);
    // The studio's calendar gets the updated invitation too.
    const [studioIcs] = JSON.parse(studioMail[0].attachments!) as { content: string }[];
    expect(studioIcs.content).toContain("SEQUENCE:1");
    expect((await slots()).some((x) => x.start === before)).toBe(true);
    expect((await slots()).some((x) => x.start === Date.parse(target))).toBe(false);
  });

  it("refuses a time taken or never offered, and no time at all", async () => {
    const a = await booked("move-a");
    const b = await booked("move-b");
    expect(refusal(await post(a.token, { intent: "move", slot: b.booking.meeting_start_at! }))).toEqual({
      status: 409,
      message: TAKEN,
    });
    const forged = iso(Date.parse(a.booking.meeting_start_at!) + 7 * 60_000);
    expect(refusal(await post(a.token, { intent: "move", slot: forged }))).toEqual({
      status: 400,
      message: UNAVAILABLE,
    });
    expect(refusal(await post(a.token, { intent: "move" }))).toEqual({ status: 400, message: PICK_A_NEW_TIME });
    const unchanged = await db()
      .selectFrom("bookings")
      .select(["meeting_start_at", "meeting_sequence"])
      .where("id", "=", a.booking.id)
      .executeTakeFirstOrThrow();
    expect(unchanged).toEqual({ meeting_start_at: a.booking.meeting_start_at, meeting_sequence: 0 });
  });

  it("cancels the call: the CANCEL invitation, the reminders void, the time free, and nothing more to do", async () => {
    const { email, token, booking } = await booked("cancel");
    expect(location(await post(token, { intent: "cancel" }))).toBe(`/call/${encodeURIComponent(token)}?done=cancelled`);
    const row = await db().selectFrom("bookings").selectAll().where("id", "=", booking.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ meeting_status: "cancelled", meeting_sequence: 1 });
    const mails = await mailsTo(email);
    const notice = mails.find((m) => m.subject.endsWith("is cancelled"))!;
    const [ics] = JSON.parse(notice.attachments!) as { contentType: string; content: string }[];
    expect(ics.contentType).toBe("text/calendar; method=CANCEL");
    expect(ics.content).toContain("METHOD:CANCEL");
    expect(ics.content).toContain("STATUS:CANCELLED");
    expect(mails.filter((m) => m.kind.startsWith("reminder") && m.status === "pending")).toEqual([]);
    expect((await slots()).some((x) => x.start === Date.parse(booking.meeting_start_at!))).toBe(true);
    const view = await page(token);
    expect(view.status).toBe("cancelled");
    expect(view.picker).toBeNull();
    expect(refusal(await post(token, { intent: "cancel" }))).toEqual({
      status: 409,
      message: "This call was cancelled.",
    });
  });

  it("after the owner's cut-off the page says to write to the studio, and changes nothing", async () => {
    const { token, booking } = await booked("cutoff");
    const soon = await startsIn(2, booking.id);
    const view = await page(token);
    expect(view.locked).toMatch(
      /^It is less than 24 hours before the call, so it can no longer be changed here: please write to /,
    );
    expect(view.picker).toBeNull();
    const [first] = await slots();
    expect(refusal(await post(token, { intent: "move", slot: iso(first.start) })).status).toBe(409);
    expect(refusal(await post(token, { intent: "cancel" })).status).toBe(409);
    const row = await db().selectFrom("bookings").selectAll().where("id", "=", booking.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ meeting_status: "scheduled", meeting_start_at: soon.toISOString() });
  });
});

describe("the owner moves or cancels it in the console", () => {
  async function owner() {
    const u = await grantAdmin(db(), "owner-calls@studio.example");
    const roles = await rolesOf(db(), u.id);
    return createCaller(createContextInner({ db: db(), user: { id: u.id, email: u.email, fullName: null, ...roles } }));
  }

  it("lists the free times without the call's own, moves it inside the clients' cut-off, then cancels it; a Calendly call is refused", async () => {
    const { email, booking } = await booked("owner");
    // Three hours away: the client can no longer change it; the owner can.
    const soon = await startsIn(3, booking.id);
    const admin = await owner();
    const days = await admin.admin.bookings.callTimes({ id: booking.id });
    const times = days.flatMap((d) => d.slots.map((x) => x.start));
    expect(times.length).toBeGreaterThan(0);
    expect(times).not.toContain(soon.toISOString());
    await expect(
      admin.admin.bookings.moveCall({ id: booking.id, startAt: iso(Date.parse(times[0]) + 60_000) }),
    ).rejects.toThrow(UNAVAILABLE);
    expect(await admin.admin.bookings.moveCall({ id: booking.id, startAt: times[0] })).toEqual({ startAt: times[0] });
    const moved = await mailsTo(email);
    expect(moved.some((m) => m.subject.includes("has moved") && m.text_body.includes("moved your call"))).toBe(true);
    expect(await admin.admin.bookings.cancelCall({ id: booking.id })).toEqual({ ok: true });
    const row = await db().selectFrom("bookings").selectAll().where("id", "=", booking.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ meeting_status: "cancelled", meeting_sequence: 2 });
    await expect(admin.admin.bookings.cancelCall({ id: booking.id })).rejects.toThrow("This call was cancelled.");
    await db().updateTable("bookings").set({ meeting_provider: "calendly" }).where("id", "=", booking.id).execute();
    await expect(admin.admin.bookings.callTimes({ id: booking.id })).rejects.toThrow(/booked through Calendly/);
  });
});
