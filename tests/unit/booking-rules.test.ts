import { describe, expect, it } from "vitest";
import { formValues, MESSAGES, stepErrors, tooLongMessage } from "#domain/booking-rules";
import { firstErrors, parseStep, stepSchema } from "#domain/booking-schema";

/**
 * The browser and the server judge a step by the same rules (decision 029): for each posted form
 * below, what the browser's rules say (stepErrors over the form as the wizard reads it) and what
 * the server's step schema answers (through conform, as the step's action parses it) are the same
 * messages, and both are the expected ones.
 */
const now = new Date("2026-11-25T12:00:00Z"); // earliest start date: 2026-12-09

type Row = [what: string, posted: Record<string, string | string[]>, expected: Record<string, string>];

function form(posted: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(posted)) for (const one of Array.isArray(v) ? v : [v]) fd.append(k, one);
  return fd;
}

function browser(step: number, posted: Record<string, string | string[]>) {
  return stepErrors(step, formValues(form(posted)), now);
}

function server(step: number, posted: Record<string, string | string[]>) {
  const submission = parseStep(form(posted), stepSchema(step, now)!);
  return submission.status === "success" ? {} : firstErrors(submission.reply().error);
}

const ok1 = { selectedPackage: "growth", name: "Ada", email: "ada@example.com", company: "Acme", phone: "" };
const ok2 = { websiteUrl: "https://acme.example", primaryGoal: "lead-gen", targetAudience: "Founders of startups" };
const ok3 = {
  inspiration1: "https://a.example",
  inspiration2: "",
  inspiration3: "",
  mustHaveFeatures: "A booking page and a blog",
  niceToHaveFeatures: "",
};
const ok4 = { preferredStartDate: "2026-12-09", timelineFlexibility: "flexible" };

const table: Record<number, Row[]> = {
  1: [
    ["a complete step", ok1, {}],
    ["padded text", { ...ok1, name: "  Ada  ", company: " Acme " }, {}],
    [
      "an empty form",
      { selectedPackage: "", name: "", email: "", company: "", phone: "" },
      {
        selectedPackage: MESSAGES.package,
        name: "Name is required",
        email: "Email is required",
        company: "Company name is required",
      },
    ],
    [
      "nothing posted",
      {},
      {
        selectedPackage: MESSAGES.package,
        name: MESSAGES.name,
        email: MESSAGES.emailRequired,
        company: MESSAGES.company,
      },
    ],
    ["a name of spaces", { ...ok1, name: "   " }, { name: "Name is required" }],
    ["a bad email", { ...ok1, email: "ada@example" }, { email: "Please enter a valid email" }],
    ["an email with two dots", { ...ok1, email: "ada..b@example.com" }, { email: MESSAGES.emailInvalid }],
    ["an unknown package", { ...ok1, selectedPackage: "platinum" }, { selectedPackage: "Please select a package" }],
    ["a name too long", { ...ok1, name: "x".repeat(121) }, { name: tooLongMessage(120) }],
    ["a phone too long", { ...ok1, phone: "1".repeat(41) }, { phone: tooLongMessage(40) }],
  ],
  2: [
    ["a complete step", ok2, {}],
    ["a new site without a URL", { ...ok2, websiteUrl: "", isNewSite: "on" }, {}],
    [
      "no URL, not a new site",
      { ...ok2, websiteUrl: "" },
      { websiteUrl: 'Website URL is required, or check "new site"' },
    ],
    [
      "an empty form",
      { websiteUrl: "", targetAudience: "" },
      {
        websiteUrl: MESSAGES.websiteUrl,
        primaryGoal: "Please select a primary goal",
        targetAudience: "Target audience is required",
      },
    ],
    [
      "a short audience",
      { ...ok2, targetAudience: "  short   " },
      { targetAudience: "Please provide more detail (at least 10 characters)" },
    ],
    ["an audience of 200", { ...ok2, targetAudience: "x".repeat(200) }, {}],
    [
      "an audience of 201",
      { ...ok2, targetAudience: "x".repeat(201) },
      { targetAudience: "Please keep it under 200 characters" },
    ],
    ["an unknown goal", { ...ok2, primaryGoal: "fame" }, { primaryGoal: MESSAGES.goal }],
  ],
  3: [
    ["a complete step", ok3, {}],
    ["only the third URL", { ...ok3, inspiration1: "", inspiration3: "http://c.example/x" }, {}],
    [
      "an empty form",
      { inspiration1: "", inspiration2: "", inspiration3: "", mustHaveFeatures: "", niceToHaveFeatures: "" },
      {
        inspiration1: "Please provide at least one inspiration website",
        mustHaveFeatures: "Please describe your must-have features",
      },
    ],
    [
      "bad URLs",
      { ...ok3, inspiration1: "ftp://a.example", inspiration2: "https://nodot", inspiration3: "www.c.com" },
      {
        inspiration1: "Please enter a valid URL (must start with http:// or https://)",
        inspiration2: MESSAGES.inspirationUrl,
        inspiration3: MESSAGES.inspirationUrl,
      },
    ],
    [
      "short features",
      { ...ok3, mustHaveFeatures: "a blog" },
      { mustHaveFeatures: "Please provide more detail (at least 20 characters)" },
    ],
    [
      "a URL too long",
      { ...ok3, inspiration2: `https://a.example/${"x".repeat(500)}` },
      { inspiration2: tooLongMessage(500) },
    ],
  ],
  4: [
    ["the earliest date", ok4, {}],
    [
      "a strict deadline with add-ons",
      {
        ...ok4,
        timelineFlexibility: "rush",
        selectedAddOns: ["seo", "copy"],
        "addOnQuantities.copy": "2",
        campaignAccepted: "on",
      },
      {},
    ],
    ["no timeline (flexible)", { preferredStartDate: "2027-01-04" }, {}],
    ["no date", { ...ok4, preferredStartDate: "" }, { preferredStartDate: "Please select a preferred start date" }],
    [
      "a day too soon",
      { ...ok4, preferredStartDate: "2026-12-08" },
      { preferredStartDate: "Start date must be at least 2 weeks from today" },
    ],
    ["not a date", { ...ok4, preferredStartDate: "next week" }, { preferredStartDate: MESSAGES.startDate }],
    ["an impossible date", { ...ok4, preferredStartDate: "2027-13-45" }, { preferredStartDate: MESSAGES.startDate }],
    [
      "an unknown timeline",
      { ...ok4, timelineFlexibility: "someday" },
      { timelineFlexibility: "Please choose a timeline" },
    ],
  ],
};

describe.each([1, 2, 3, 4])("step %i: the browser's rules and the server's verdict agree", (step) => {
  it.each(table[step])("%s", (_what, posted, expected) => {
    expect(browser(step, posted)).toEqual(expected);
    expect(server(step, posted)).toEqual(expected);
  });
});

describe("steps without a form to check", () => {
  it("5 and 6 have no rules and no schema", () => {
    expect(stepErrors(5, {})).toEqual({});
    expect(stepErrors(6, {})).toEqual({});
    expect(stepSchema(5)).toBeNull();
  });
});

describe("what the server keeps of a valid step", () => {
  it("is typed form state, trimmed, the checkbox a boolean, add-ons listed", () => {
    const s2 = parseStep(
      form({ ...ok2, targetAudience: "  Founders of startups ", isNewSite: "on" }),
      stepSchema(2, now)!,
    );
    expect(s2.status).toBe("success");
    expect(s2.status === "success" && s2.value).toMatchObject({
      targetAudience: "Founders of startups",
      isNewSite: true,
    });
    const s4 = parseStep(form({ ...ok4, selectedAddOns: "seo", "addOnQuantities.copy": "2" }), stepSchema(4, now)!);
    expect(s4.status === "success" && s4.value).toMatchObject({
      selectedAddOns: ["seo"],
      addOnQuantities: { copy: 2 },
      timelineFlexibility: "flexible",
      campaignAccepted: false,
    });
  });
});
