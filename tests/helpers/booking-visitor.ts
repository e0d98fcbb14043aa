import { expect } from "vitest";
import { handleBookingPost } from "../../server/http/booking-actions.server";
import type { DB } from "../../server/db/db.server";
import { openSlots } from "../../server/calendar/calls.server";
import { getStudio } from "../../server/studio/studio.server";

const BASE = "http://localhost:3000";
export const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 10);

/** Where a step's answer sends the visitor (a redirect), or its status. */
export function outcome(res: unknown): { status: number; location: string | null } {
  if (res instanceof Response) return { status: res.status, location: res.headers.get("Location") };
  const d = res as { init?: { status?: number } };
  return { status: d.init?.status ?? 200, location: null };
}

/** A visitor with a cookie jar posting the booking forms to the step actions. */
export function bookingVisitor(db: () => DB) {
  let cookie = "";
  const v = {
    async post(step: number, fields: Record<string, string | string[]>) {
      const body = new URLSearchParams();
      for (const [k, val] of Object.entries(fields))
        for (const x of Array.isArray(val) ? val : [val]) body.append(k, x);
      const res = await handleBookingPost(
        db(),
        new Request(`${BASE}/booking?step=${step}`, {
          method: "POST",
          body,
          headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        }),
      );
      const set = res instanceof Response ? res.headers.get("Set-Cookie") : null;
      if (set) cookie = set.split(";")[0];
      return res;
    },
    get cookie() {
      return cookie;
    },
    /** Steps 1 to 5 answered, the review (step 6) reached. */
    async walk(email: string, name = "Ada Lovelace") {
      expect(
        outcome(
          await v.post(1, { selectedPackage: "growth", name, email, company: "Analytical Engines", intent: "next" }),
        ).location,
      ).toBe("/booking?step=2");
      expect(
        outcome(
          await v.post(2, {
            isNewSite: "on",
            primaryGoal: "lead-gen",
            targetAudience: "Founders of early-stage B2B companies",
            intent: "next",
          }),
        ).location,
      ).toBe("/booking?step=3");
      expect(
        outcome(
          await v.post(3, {
            inspiration1: "https://linear.app",
            mustHaveFeatures: "Case studies, a contact form and a blog",
            intent: "next",
          }),
        ).location,
      ).toBe("/booking?step=4");
      expect(
        outcome(await v.post(4, { preferredStartDate: inDays(30), timelineFlexibility: "flexible", intent: "next" }))
          .location,
      ).toBe("/booking?step=5");
      expect(outcome(await v.post(5, { intent: "next" })).location).toBe("/booking?step=6");
    },
    /**
     * The confirm: with Calendly, the URIs its message named; with the built-in calendar, the first
     * free time offered (or `slot`).
     */
    async confirm(uris: { eventUri?: string; inviteeUri?: string; slot?: string } = {}) {
      const fields: Record<string, string> = { intent: "confirm" };
      if (uris.eventUri !== undefined) fields.eventUri = uris.eventUri;
      if (uris.inviteeUri !== undefined) fields.inviteeUri = uris.inviteeUri;
      const { calendar } = await getStudio(db());
      if (uris.slot !== undefined) fields.slot = uris.slot;
      else if (calendar.provider === "builtin") {
        const [first] = await openSlots(db(), calendar.availability, Date.now());
        if (first) fields.slot = new Date(first.start).toISOString();
      }
      return outcome(await v.post(6, fields));
    },
  };
  return v;
}
