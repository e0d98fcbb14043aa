import { afterEach, describe, expect, it, vi } from "vitest";
import { samplePackages } from "#domain/sample/packages";
import { sampleIdentity } from "#domain/sample/site";
import { CASE_GRADIENTS } from "#domain/sample/case-studies";
import { parseSection } from "#domain/studio-settings";
import { calendarFormValues, defaultCalendar } from "#domain/calendar-settings";
import {
  clearSample,
  getStudio,
  legalPage,
  moveCaseStudy,
  removeCaseStudy,
  saveCaseStudy,
  saveSection,
} from "../../server/studio/studio.server";
import { freshDb, type TestDb } from "../helpers/db";
import { bookingVisitor } from "../helpers/booking-visitor";

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function form(fields: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
  return f;
}

/** The Packages form as the console posts it: every tier's fields, prices in whole dollars. */
function packagesForm(edit: (tiers: Record<string, string>[]) => void = () => {}): FormData {
  const tiers = samplePackages.map((p) => {
    const fields: Record<string, string> = {
      id: p.id,
      name: p.name,
      basePrice: String(p.basePrice / 100),
      priceLabel: p.priceLabel,
      timeline: p.timeline,
      description: p.description,
      included: p.included.join("\n"),
      notIncluded: p.notIncluded.join("\n"),
      cta: p.cta,
      depositPercent: String(p.deposit.percent),
    };
    if (p.recommended) fields.recommended = "on";
    if (p.offered) fields.offered = "on";
    p.addOns.forEach((a, j) => {
      fields[`addOns[${j}].id`] = a.id;
      fields[`addOns[${j}].name`] = a.name;
      fields[`addOns[${j}].description`] = a.description;
      fields[`addOns[${j}].price`] = String(a.price / 100);
      fields[`addOns[${j}].maxQuantity`] = String(a.maxQuantity);
      if (a.allowMultiple) fields[`addOns[${j}].allowMultiple`] = "on";
    });
    return fields;
  });
  edit(tiers);
  const flat: Record<string, string> = {};
  tiers.forEach((fields, i) => {
    for (const [k, v] of Object.entries(fields)) flat[`tiers[${i}].${k}`] = v;
  });
  return form(flat);
}

describe("the studio's settings (issue 29)", () => {
  it("a new data folder reads as the sample studio, every section marked sample", async () => {
    t = await freshDb();
    const s = await getStudio(t.db);
    expect(s.identity.name).toBe("Studio Rowan");
    expect(s.catalogue.packages.map((p) => p.basePrice)).toEqual([250000, 850000, 1500000]);
    expect(Object.values(s.sections).every((m) => m.sample && m.updatedBy === null)).toBe(true);
    expect(s.testimonials.map((t) => t.name)).toEqual(["Founder", "Managing partner", "Head of marketing"]);
    expect(legalPage(s, "terms").updated).toBe("Last updated October 24, 2025");
    expect(legalPage(s, "terms").intro).toContain("Studio Rowan");
  });

  it("STUDIO_EMAIL replaces the example address until the owner saves one", async () => {
    t = await freshDb();
    expect((await getStudio(t.db, { studioEmail: "owner@studio.test" })).identity.contactEmail).toBe(
      "owner@studio.test",
    );
    await saveSection(t.db, "studio", { ...sampleIdentity, contactEmail: "hi@mine.test" }, "owner@studio.test");
    expect((await getStudio(t.db, { studioEmail: "owner@studio.test" })).identity.contactEmail).toBe("hi@mine.test");
  });

  it("a save is read at the next request, remembers who saved it, and fills the legal text with the new name", async () => {
    t = await freshDb();
    const before = await getStudio(t.db);
    const parsed = parseSection(
      form({
        name: "Atelier Nord",
        designer: "Ines Berg",
        role: "Designer",
        bio: "First paragraph.\n\nSecond paragraph.",
        contactEmail: "hello@ateliernord.test",
        socialUrl: "https://mastodon.social/@nord",
        socialLabel: "Mastodon",
        footerLine: "Websites from the north.",
        trustedBy: "Fjord\nBirch & Co\n\n",
        calendarUrl: "",
      }),
      "studio",
    );
    expect(parsed.status).toBe("success");
    if (parsed.status !== "success") return;
    await saveSection(t.db, "studio", parsed.value, "owner@ateliernord.test");
    const after = await getStudio(t.db);
    expect(after).not.toBe(before);
    expect(after.identity).toMatchObject({
      name: "Atelier Nord",
      bio: ["First paragraph.", "Second paragraph."],
      trustedBy: ["Fjord", "Birch & Co"],
    });
    expect(after.sections.studio).toMatchObject({ sample: false, updatedBy: "owner@ateliernord.test" });
    expect(after.sections.packages.sample).toBe(true);
    expect(legalPage(after, "terms").intro).toContain("Atelier Nord");
    expect(legalPage(after, "terms").intro).not.toContain("Studio Rowan");
  });

  it("refuses bad input by field with the form's schema, and changes nothing", async () => {
    t = await freshDb();
    const studio = parseSection(
      form({ name: "", contactEmail: "not-an-email", socialUrl: "javascript:alert(1)", footerLine: "x".repeat(301) }),
      "studio",
    );
    expect(studio.status).toBe("error");
    expect(studio.reply().error).toMatchObject({
      name: ["Studio name is required"],
      contactEmail: ["Please enter a valid email"],
      socialUrl: ["Links must start with https:// or http://"],
      footerLine: ["Please keep this under 300 characters"],
    });
    const prices = parseSection(
      packagesForm((tiers) => {
        tiers[0].basePrice = "1000001";
        tiers[1].basePrice = "12.50";
        tiers[2].basePrice = "-5";
        tiers[0]["addOns[0].price"] = "abc";
      }),
      "packages",
    );
    expect(prices.reply().error).toMatchObject({
      "tiers[0].basePrice": ["Enter a whole amount from $0 to $999,999"],
      "tiers[1].basePrice": ["Prices are whole dollars (no cents)"],
      "tiers[2].basePrice": ["Enter a whole amount from $0 to $999,999"],
      "tiers[0].addOns[0].price": ["Enter a whole amount from $0 to $999,999"],
    });
    const none = parseSection(
      packagesForm((tiers) => tiers.forEach((tier) => delete tier.offered)),
      "packages",
    );
    expect(none.reply().error).toMatchObject({ tiers: ["Offer at least one package"] });
    expect((await getStudio(t.db)).sections.packages.sample).toBe(true);
  });

  it("prices are data: a booking made after a price change stores the new prices, an older one keeps its own", async () => {
    t = await freshDb();
    const db = t.db;
    const first = bookingVisitor(() => db);
    await first.walk("first@example.com");
    expect((await first.confirm()).location).toBe("/booking/success");

    const parsed = parseSection(
      packagesForm((tiers) => {
        tiers[1].name = "Scale";
        tiers[1].basePrice = "9900";
      }),
      "packages",
    );
    if (parsed.status !== "success") throw new Error(JSON.stringify(parsed.reply().error));
    await saveSection(db, "packages", parsed.value, "owner@example.com");

    const second = bookingVisitor(() => db);
    await second.walk("second@example.com");
    expect((await second.confirm()).location).toBe("/booking/success");

    const rows = await db
      .selectFrom("bookings")
      .select(["email", "package_price", "total_amount", "package_name"])
      .orderBy("created_at")
      .execute();
    expect(rows.find((r) => r.email === "first@example.com")).toMatchObject({
      package_price: 850000,
      total_amount: 850000,
      package_name: "Growth",
    });
    expect(rows.find((r) => r.email === "second@example.com")).toMatchObject({
      package_price: 990000,
      total_amount: 990000,
      package_name: "Scale",
    });
    const studioMail = await db
      .selectFrom("email_outbox")
      .select("subject")
      .where("subject", "like", "New booking:%")
      .execute();
    expect(studioMail.map((m) => m.subject).sort()).toEqual([
      "New booking: Analytical Engines (Growth Package)",
      "New booking: Analytical Engines (Scale Package)",
    ]);
  });

  it("a package that is no longer offered cannot be booked", async () => {
    t = await freshDb();
    const parsed = parseSection(
      packagesForm((tiers) => delete tiers[1].offered),
      "packages",
    );
    if (parsed.status !== "success") throw new Error("invalid");
    await saveSection(t.db, "packages", parsed.value, "owner@example.com");
    const db = t.db;
    const v = bookingVisitor(() => db);
    const res = (await v.post(1, {
      selectedPackage: "growth",
      name: "Ada",
      email: "ada@example.com",
      company: "Acme",
      intent: "next",
    })) as { init?: { status?: number }; data?: { error?: Record<string, string[]> } };
    expect(res.init?.status).toBe(400);
    expect(res.data?.error?.selectedPackage).toEqual(["Please select a package"]);
  });

  it("case studies are added, reordered and removed; clearing the sample empties the section", async () => {
    t = await freshDb();
    const study = {
      id: "",
      title: "A new shop",
      client: "Birch & Co",
      industry: "Retail",
      challenge: "c",
      solution: "s",
      result: "r",
      tags: ["Shop"],
      metrics: [{ label: "Sales", value: "+20%" }],
      images: [],
    };
    const { id } = await saveCaseStudy(t.db, study, "owner@example.com");
    let s = await getStudio(t.db);
    expect(s.caseStudies.map((c) => c.id)).toEqual(["1", "2", "3", "4", id]);
    await moveCaseStudy(t.db, id, -1, "owner@example.com");
    s = await getStudio(t.db);
    expect(s.caseStudies.map((c) => c.id)).toEqual(["1", "2", "3", id, "4"]);
    await removeCaseStudy(t.db, "1", "owner@example.com");
    s = await getStudio(t.db);
    expect(s.caseStudies.map((c) => c.id)).toEqual(["2", "3", id, "4"]);
    await expect(removeCaseStudy(t.db, "1", "owner@example.com")).rejects.toMatchObject({ kind: "not-found" });
    await clearSample(t.db, "caseStudies", "owner@example.com");
    s = await getStudio(t.db);
    expect(s.caseStudies).toEqual([]);
    expect(s.sections.caseStudies).toMatchObject({ sample: false, updatedBy: "owner@example.com" });
  });

  /** A case study's words, for the tests of its pictures. */
  const base = {
    title: "T",
    client: "C",
    industry: "I",
    challenge: "c",
    solution: "s",
    result: "r",
    tags: [],
    metrics: [],
  };

  it("a case study's pictures are its own: another's named in a post are dropped, and removing one deletes only its own (issue 40.5)", async () => {
    t = await freshDb();
    const a = "/files/studio-images/case-a.png";
    const b = "/files/studio-images/case-b.png";
    const first = await saveCaseStudy(t.db, { ...base, id: "", images: [{ url: a, alt: "A" }] }, "o@x.test", [a]);
    // A hand-made post for a second case study names the first one's picture beside its own upload.
    const second = await saveCaseStudy(
      t.db,
      {
        ...base,
        id: "",
        images: [
          { url: a, alt: "stolen" },
          { url: b, alt: "B" },
        ],
      },
      "o@x.test",
      [b],
    );
    let s = await getStudio(t.db);
    expect(s.caseStudies.find((c) => c.id === second.id)!.images).toEqual([{ url: b, alt: "B" }]);
    // Editing the first one keeps its picture; naming the second one's is dropped again.
    await saveCaseStudy(
      t.db,
      {
        ...base,
        id: first.id,
        images: [
          { url: a, alt: "A" },
          { url: b, alt: "x" },
        ],
      },
      "o@x.test",
    );
    s = await getStudio(t.db);
    expect(s.caseStudies.find((c) => c.id === first.id)!.images).toEqual([{ url: a, alt: "A" }]);
    expect(await removeCaseStudy(t.db, second.id, "o@x.test")).toEqual([b]);
    expect(await removeCaseStudy(t.db, first.id, "o@x.test")).toEqual([a]);
  });

  it("a picture two case studies name (saved by an earlier version) is deleted only with the last of them", async () => {
    t = await freshDb();
    const shared = "/files/studio-images/case-shared.png";
    const images = [{ url: shared, alt: "S" }];
    await saveSection(
      t.db,
      "caseStudies",
      {
        items: [
          { ...base, id: "x1", gradient: CASE_GRADIENTS[0], images },
          { ...base, id: "x2", gradient: CASE_GRADIENTS[0], images },
        ],
      },
      "o@x.test",
    );
    expect(await removeCaseStudy(t.db, "x1", "o@x.test")).toEqual([]);
    expect(await removeCaseStudy(t.db, "x2", "o@x.test")).toEqual([shared]);
  });

  it("every save announces a catalogue change, so cached pages are dropped", async () => {
    t = await freshDb();
    const version = async () =>
      (await t!.db.selectFrom("catalogue_version").select("version").executeTakeFirstOrThrow()).version;
    const v0 = await version();
    await clearSample(t.db, "promotion", "owner@example.com");
    expect(await version()).toBe(v0 + 1);
    expect((await getStudio(t.db)).catalogue.promotions.filter((p) => p.enabled)).toEqual([]);
  });
});

describe("Settings → Payments (issue 31)", () => {
  const terms = (stages: [string, string][], days = "5") =>
    form({
      ...Object.fromEntries(
        stages.flatMap(([label, percent], i) => [
          [`stages[${i}].label`, label],
          [`stages[${i}].percent`, percent],
          [`stages[${i}].description`, ""],
        ]),
      ),
      dueBusinessDays: days,
    });

  it("refuses stages that do not add up to 100% or a percent that is not whole", () => {
    const off = parseSection(
      terms([
        ["Deposit", "30"],
        ["Rest", "60"],
      ]),
      "payments",
    );
    expect(off.status).toBe("error");
    expect(off.reply().error?.stages).toEqual(["The stages must add up to 100% (they add up to 90%)"]);
    const half = parseSection(
      terms([
        ["Deposit", "33.5"],
        ["Rest", "66.5"],
      ]),
      "payments",
    );
    expect(half.reply().error?.["stages[0].percent"]).toEqual(["Enter a whole percent from 1 to 100"]);
    const days = parseSection(terms([["All", "100"]], "0"), "payments");
    expect(days.reply().error?.dueBusinessDays).toEqual(["Enter a number of business days from 1 to 60"]);
  });

  it("a saved split is every new booking's plan, and the terms the packages page states", async () => {
    t = await freshDb();
    const parsed = parseSection(
      terms([
        ["Half now", "50"],
        ["Half at launch", "50"],
      ]),
      "payments",
    );
    expect(parsed.status).toBe("success");
    if (parsed.status !== "success") return;
    await saveSection(t.db, "payments", parsed.value, "owner@example.com");
    const studio = await getStudio(t.db);
    expect(studio.paymentTerms).toEqual({
      stages: [
        { label: "Half now", percent: 50, description: "" },
        { label: "Half at launch", percent: 50, description: "" },
      ],
      dueBusinessDays: 5,
    });
    expect(studio.sections.payments).toMatchObject({ sample: false, updatedBy: "owner@example.com" });
    const visitor = bookingVisitor(() => t!.db);
    await visitor.walk("split@example.com");
    expect((await visitor.confirm()).location).toBe("/booking/success");
    const { id } = await t.db
      .selectFrom("bookings")
      .select("id")
      .where("email", "=", "split@example.com")
      .executeTakeFirstOrThrow();
    const stages = await t.db
      .selectFrom("booking_stages")
      .select(["label", "amount"])
      .where("booking_id", "=", id)
      .orderBy("position")
      .execute();
    const { total_amount } = await t.db
      .selectFrom("bookings")
      .select("total_amount")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(stages.map((s) => s.label)).toEqual(["Half now", "Half at launch"]);
    expect(stages.reduce((sum, s) => sum + s.amount, 0)).toBe(total_amount);
  });
});

describe("Settings → Calendar (issue 43)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /**
   * The studio's services with the environment as it is now: env() is read once per module
   * instance, so a test of STUDIO_TIMEZONE or CALENDLY_URL loads them afresh after stubbing.
   */
  async function studioWithEnv(vars: Record<string, string | undefined>) {
    for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
    vi.resetModules();
    return import("../../server/studio/studio.server");
  }

  it("a saved calendar is stored and read back, marked as the owner's", async () => {
    t = await freshDb();
    const parsed = parseSection(
      form({
        ...calendarFormValues(defaultCalendar("Europe/London")),
        provider: "builtin",
        timeZone: "America/Chicago",
        hours1: "08:00-12:00, 13:00-16:00",
        hours5: "",
        hours6: "10:00-13:00",
        callMinutes: "45",
        intervalMinutes: "15",
        bufferBeforeMinutes: "5",
        bufferAfterMinutes: "10",
        noticeHours: "12",
        windowDays: "60",
        maxPerDay: "3",
        overrides: "2027-12-25 off\n2027-12-24 09:00-12:00",
        meetingUrl: "https://whereby.com/atelier",
        cutoffHours: "6",
      }),
      "calendar",
    );
    if (parsed.status !== "success") throw new Error(JSON.stringify(parsed.reply().error));
    await saveSection(t.db, "calendar", parsed.value, "owner@example.com");
    const studio = await getStudio(t.db);
    expect(studio.calendar).toEqual({
      provider: "builtin",
      availability: {
        timeZone: "America/Chicago",
        callMinutes: 45,
        intervalMinutes: 15,
        weekly: {
          "1": [
            { start: "08:00", end: "12:00" },
            { start: "13:00", end: "16:00" },
          ],
          "2": [{ start: "09:00", end: "17:00" }],
          "3": [{ start: "09:00", end: "17:00" }],
          "4": [{ start: "09:00", end: "17:00" }],
          "5": [],
          "6": [{ start: "10:00", end: "13:00" }],
          "7": [],
        },
        noticeHours: 12,
        windowDays: 60,
        bufferBeforeMinutes: 5,
        bufferAfterMinutes: 10,
        overrides: [
          { date: "2027-12-24", ranges: [{ start: "09:00", end: "12:00" }] },
          { date: "2027-12-25", ranges: [] },
        ],
        maxPerDay: 3,
      },
      meetingUrl: "https://whereby.com/atelier",
      cutoffHours: 6,
    });
    expect(studio.sections.calendar).toMatchObject({ sample: false, updatedBy: "owner@example.com" });
    // The console's form shows what was saved.
    expect(calendarFormValues(studio.calendar)).toMatchObject({
      hours1: "08:00-12:00, 13:00-16:00",
      overrides: "2027-12-24 09:00-12:00\n2027-12-25 off",
      maxPerDay: "3",
    });
    // Switching to Calendly keeps the hours for later.
    await saveSection(t.db, "calendar", { ...studio.calendar, provider: "calendly" }, "owner@example.com");
    const after = await getStudio(t.db);
    expect(after.calendar.provider).toBe("calendly");
    expect(after.calendar.availability).toEqual(studio.calendar.availability);
  });

  it("a refused calendar changes nothing", async () => {
    t = await freshDb();
    const before = (await getStudio(t.db)).calendar;
    const parsed = parseSection(form({ ...calendarFormValues(before), hours1: "9-5", provider: "other" }), "calendar");
    expect(parsed.status).toBe("error");
    expect(parsed.reply().error).toMatchObject({
      hours1: ['Monday: "9-5" is not a range of hours (use 09:00-17:00)'],
      provider: ["Choose Built-in or Calendly"],
    });
    const studio = await getStudio(t.db);
    expect(studio.calendar).toEqual(before);
    expect(studio.sections.calendar.updatedBy).toBeNull();
  });

  it("a data folder that never saved it gets the built-in calendar in STUDIO_TIMEZONE", async () => {
    t = await freshDb();
    const studio = await studioWithEnv({ STUDIO_TIMEZONE: "Asia/Tokyo", CALENDLY_URL: undefined });
    const s = await studio.getStudio(t.db);
    expect(s.calendar).toEqual(defaultCalendar("Asia/Tokyo", "builtin"));
    expect(s.calendar.availability.timeZone).toBe("Asia/Tokyo");
  });

  it("…and Calendly while the studio books through it: a calendar link saved in Settings → Studio", async () => {
    t = await freshDb();
    const studio = await studioWithEnv({ STUDIO_TIMEZONE: "Europe/Berlin", CALENDLY_URL: undefined });
    await studio.saveSection(
      t.db,
      "studio",
      { ...sampleIdentity, calendarUrl: "https://calendly.com/atelier/intro" },
      "owner@example.com",
    );
    const s = await studio.getStudio(t.db);
    expect(s.calendar).toEqual(defaultCalendar("Europe/Berlin", "calendly"));
    // Once the owner saves the section, that is what it holds.
    await studio.saveSection(t.db, "calendar", defaultCalendar("Europe/Berlin", "builtin"), "owner@example.com");
    expect((await studio.getStudio(t.db)).calendar.provider).toBe("builtin");
  });

  it("…or CALENDLY_URL set", async () => {
    t = await freshDb();
    const studio = await studioWithEnv({
      STUDIO_TIMEZONE: "America/New_York",
      CALENDLY_URL: "https://calendly.com/atelier/call",
    });
    expect((await studio.getStudio(t.db)).calendar).toEqual(defaultCalendar("America/New_York", "calendly"));
  });
});
