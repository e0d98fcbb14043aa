import { describe, expect, it } from "vitest";
import {
  earliestStartDate,
  isoDatePlusDays,
  step1Schema,
  step2Schema,
  step3Schema,
  step4Schema,
} from "#domain/booking-schema";
import type { z } from "zod";

/** The first message per field, as the step shows them. */
function errors(schema: z.ZodTypeAny, input: unknown) {
  const r = schema.safeParse(input);
  const out: Record<string, string> = {};
  for (const issue of r.success ? [] : r.error.issues) out[issue.path.join(".")] ??= issue.message;
  return out;
}

describe("step 1", () => {
  it("names every missing field with the spec's message", () => {
    expect(errors(step1Schema, {})).toEqual({
      selectedPackage: "Please select a package",
      name: "Name is required",
      email: "Email is required",
      company: "Company name is required",
    });
  });
  it("rejects a bad email and an unknown package", () => {
    const e = errors(step1Schema, { selectedPackage: "platinum", name: "Ada", email: "nope", company: "Acme" });
    expect(e).toEqual({ selectedPackage: "Please select a package", email: "Please enter a valid email" });
  });
  it("accepts and trims a complete step", () => {
    const r = step1Schema.parse({
      selectedPackage: "growth",
      name: " Ada ",
      email: "ada@example.com",
      company: "Acme",
    });
    expect(r.name).toBe("Ada");
  });
  it("does not accept whitespace as a name", () => {
    expect(errors(step1Schema, { selectedPackage: "growth", name: "   ", email: "a@b.co", company: "A" })).toEqual({
      name: "Name is required",
    });
  });
});

describe("step 2", () => {
  it("requires a website unless new site is checked", () => {
    expect(errors(step2Schema, { primaryGoal: "lead-gen", targetAudience: "Founders of startups" })).toEqual({
      websiteUrl: 'Website URL is required, or check "new site"',
    });
    expect(
      errors(step2Schema, { isNewSite: "on", primaryGoal: "lead-gen", targetAudience: "Founders of startups" }),
    ).toEqual({});
  });
  it("checks the goal and the audience length", () => {
    expect(errors(step2Schema, { websiteUrl: "https://a.com" })).toEqual({
      primaryGoal: "Please select a primary goal",
      targetAudience: "Target audience is required",
    });
    expect(errors(step2Schema, {})).toEqual({
      primaryGoal: "Please select a primary goal",
      targetAudience: "Target audience is required",
      websiteUrl: 'Website URL is required, or check "new site"',
    });
    expect(
      errors(step2Schema, { websiteUrl: "https://a.com", primaryGoal: "ecommerce", targetAudience: "short" }),
    ).toEqual({
      targetAudience: "Please provide more detail (at least 10 characters)",
    });
    expect(
      errors(step2Schema, { websiteUrl: "https://a.com", primaryGoal: "ecommerce", targetAudience: "x".repeat(201) })
        .targetAudience,
    ).toBeDefined();
    expect(
      errors(step2Schema, { websiteUrl: "https://a.com", primaryGoal: "ecommerce", targetAudience: "x".repeat(200) }),
    ).toEqual({});
  });
});

describe("step 3", () => {
  it("requires one inspiration and detailed must-haves", () => {
    expect(errors(step3Schema, {})).toEqual({
      inspiration1: "Please provide at least one inspiration website",
      mustHaveFeatures: "Please describe your must-have features",
    });
    expect(errors(step3Schema, { inspiration1: "ftp://a", mustHaveFeatures: "" })).toEqual({
      inspiration1: "Please enter a valid URL (must start with http:// or https://)",
      mustHaveFeatures: "Please describe your must-have features",
    });
    expect(errors(step3Schema, { inspiration1: "https://a.com", mustHaveFeatures: "too short" })).toEqual({
      mustHaveFeatures: "Please provide more detail (at least 20 characters)",
    });
  });
  it("checks each filled URL for a scheme and a dot", () => {
    const msg = "Please enter a valid URL (must start with http:// or https://)";
    const e = errors(step3Schema, {
      inspiration1: "ftp://a.com",
      inspiration2: "https://localhost",
      inspiration3: "stripe.com",
      mustHaveFeatures: "A contact form and a blog with categories",
    });
    expect(e).toEqual({ inspiration1: msg, inspiration2: msg, inspiration3: msg });
    expect(
      errors(step3Schema, {
        inspiration2: "http://linear.app",
        mustHaveFeatures: "A contact form and a blog with categories",
      }),
    ).toEqual({});
  });
});

describe("step 4", () => {
  const now = new Date("2026-11-22T10:00:00Z");
  it("requires a start date at least 14 days out", () => {
    const s = step4Schema(now);
    expect(errors(s, {})).toEqual({ preferredStartDate: "Please select a preferred start date" });
    expect(errors(s, { preferredStartDate: "2026-12-05" })).toEqual({
      preferredStartDate: "Start date must be at least 2 weeks from today",
    });
    expect(errors(s, { preferredStartDate: "2026-12-06" })).toEqual({});
    expect(earliestStartDate(now)).toBe("2026-12-06");
    expect(isoDatePlusDays(new Date("2026-12-31T23:59:00Z"), 1)).toBe("2027-01-01");
  });
  it("accepts flexible or rush only", () => {
    const s = step4Schema(now);
    expect(s.parse({ preferredStartDate: "2027-01-10", timelineFlexibility: "rush" }).timelineFlexibility).toBe("rush");
    expect(
      errors(s, { preferredStartDate: "2027-01-10", timelineFlexibility: "asap" }).timelineFlexibility,
    ).toBeDefined();
  });
});
