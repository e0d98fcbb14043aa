import { describe, expect, it } from "vitest";
import { emptyFormState, type BookingFormState } from "#domain/booking-state";
import type { Draft } from "../../server/booking/draft.server";
import { SUCCESS_ERRORS, successPageFor } from "../../server/booking/success.server";
import { cacheKeyFor } from "../../server/http/page-cache.server";

const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 10);
const complete: BookingFormState = {
  ...emptyFormState(),
  selectedPackage: "growth",
  name: "Ada",
  email: "ada@example.com",
  company: "Engines",
  isNewSite: true,
  primaryGoal: "lead-gen",
  targetAudience: "Founders of B2B companies",
  inspiration1: "https://linear.app",
  mustHaveFeatures: "Case studies and a contact form",
  preferredStartDate: inDays(30),
  timelineFlexibility: "flexible",
};
const draft = (over: Partial<Draft> = {}): Draft => ({
  id: "d",
  bookingId: "b",
  state: complete,
  completed: [1, 2, 3, 4],
  files: [],
  confirmedAt: null,
  ...over,
});

describe("/booking/success access", () => {
  it("shows the page to a visitor whose booking was saved, without any error", () => {
    const confirmed = draft({ confirmedAt: "2026-01-01T00:00:00.000Z" });
    expect(successPageFor(confirmed, null)).toEqual({ show: true, error: null });
    expect(successPageFor(confirmed, "save_failed")).toEqual({ show: true, error: null });
    expect(successPageFor(confirmed, "<script>alert(1)</script>")).toEqual({ show: true, error: null });
  });

  it("shows the spec's message after a failed save of a complete draft only", () => {
    expect(successPageFor(draft(), "save_failed")).toEqual({ show: true, error: SUCCESS_ERRORS.save_failed });
    expect(SUCCESS_ERRORS.save_failed).toMatch(
      /^Failed to save booking: .+\. Please contact support with your booking details\.$/,
    );
    expect(successPageFor(draft({ completed: [1, 2, 3] }), "save_failed")).toEqual({ show: false });
    expect(successPageFor(draft({ state: emptyFormState(), completed: [] }), "save_failed")).toEqual({ show: false });
  });

  it("sends everyone else away, whatever the query says", () => {
    expect(successPageFor(null, null)).toEqual({ show: false });
    expect(successPageFor(null, "save_failed")).toEqual({ show: false });
    for (const q of [null, "", "Disk on fire", "toString", "__proto__", "constructor", "SAVE_FAILED"]) {
      expect(successPageFor(draft(), q), String(q)).toEqual({ show: false });
    }
  });

  it("is never served from the page cache", () => {
    for (const p of ["/booking/success", "/booking/success?error=save_failed", "/booking/success/"]) {
      expect(cacheKeyFor("GET", p, false), p).toBeNull();
      expect(cacheKeyFor("GET", p, true), p).toBeNull();
    }
  });
});
