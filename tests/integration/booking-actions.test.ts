import type { SubmissionResult } from "@conform-to/react";
import { sampleCatalogue } from "#domain/sample/catalogue";
import { beforeAll, describe, expect, it } from "vitest";
import { HONEYPOT_FIELD } from "../../server/http/booking-actions.server";
import { loadBookingStep } from "../../server/http/booking-flow.server";
import { db } from "../../server/db.server";
import { migrateToLatest } from "../../server/db/db.server";
import { bookingVisitor, inDays } from "../helpers/booking-visitor";

const BASE = "http://localhost:3000";

/** A visitor with a cookie jar posting the booking forms (the shared helper, on this file's database). */
const visitor = () => bookingVisitor(db);

async function statusOf(res: unknown) {
  if (res instanceof Response) return { status: res.status, location: res.headers.get("Location") };
  const d = res as { init?: { status?: number }; data?: unknown };
  return { status: d.init?.status ?? 200, data: d.data as SubmissionResult<string[]> | undefined };
}

async function complete(v: ReturnType<typeof visitor>, email: string, extra: Record<string, string | string[]> = {}) {
  expect(
    (
      await statusOf(
        await v.post(1, { selectedPackage: "essentials", name: "Ada", email, company: "Acme", intent: "next" }),
      )
    ).location,
  ).toBe("/booking?step=2");
  expect(
    (
      await statusOf(
        await v.post(2, {
          isNewSite: "on",
          primaryGoal: "portfolio",
          targetAudience: "Design-minded founders",
          intent: "next",
        }),
      )
    ).location,
  ).toBe("/booking?step=3");
  expect(
    (
      await statusOf(
        await v.post(3, {
          inspiration1: "https://stripe.com",
          mustHaveFeatures: "Portfolio grid with filters and a blog",
          intent: "next",
        }),
      )
    ).location,
  ).toBe("/booking?step=4");
  expect(
    (
      await statusOf(
        await v.post(4, {
          preferredStartDate: inDays(20),
          timelineFlexibility: "flexible",
          selectedAddOns: ["additional-page", "blog-setup"],
          "addOnQuantities.additional-page": "2",
          campaignAccepted: "on",
          intent: "next",
          ...extra,
        }),
      )
    ).location,
  ).toBe("/booking?step=5");
}

beforeAll(async () => {
  await migrateToLatest(db());
});

describe("booking step actions", () => {
  it("answer 400 with the spec's messages and the entered values, or redirect to the next step", async () => {
    const v = visitor();
    const bad = await statusOf(await v.post(1, { name: "Ada", email: "nope", intent: "next" }));
    expect(bad.status).toBe(400);
    expect(bad.data?.error).toEqual({
      selectedPackage: ["Please select a package"],
      email: ["Please enter a valid email"],
      company: ["Company name is required"],
    });
    expect(bad.data?.initialValue?.name).toBe("Ada");
  });

  it("refuse to jump past an incomplete step", async () => {
    const v = visitor();
    await v.post(1, {
      selectedPackage: "growth",
      name: "Ada",
      email: "ada@example.com",
      company: "Acme",
      intent: "next",
    });
    expect((await statusOf(await v.post(4, { preferredStartDate: inDays(30), intent: "next" }))).location).toBe(
      "/booking?step=2",
    );
    const req = new Request(`${BASE}/booking?step=5`, { headers: { Cookie: v.cookie } });
    await expect(loadBookingStep(db(), req, sampleCatalogue)).rejects.toMatchObject({ status: 302 });
  });

  it("GET never writes: a first visit's selection and source are shown, then saved by the step-1 post", async () => {
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom("booking_drafts")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const req = new Request(`${BASE}/booking?tier=growth&addOns=crm-integration&utm_source=newsletter`, {
      headers: { Referer: "https://elsewhere.example/" },
    });
    const view = await loadBookingStep(db(), req, sampleCatalogue);
    expect(await count()).toBe(before);
    expect(view.draft.state.selectedPackage).toBe("growth");
    expect(view.draft.state.source).toBe("utm:newsletter");
    expect(view.carry).toContain("tier=growth");

    const v = visitor();
    const email = `carry-${Date.now()}@example.com`;
    expect(
      (
        await statusOf(
          await v.post(1, {
            selectedPackage: "growth",
            name: "Ada",
            email,
            company: "Acme",
            carry: view.carry,
            intent: "next",
          }),
        )
      ).location,
    ).toBe("/booking?step=2");
    expect(await count()).toBe(before + 1);
    const draft = await db()
      .selectFrom("booking_drafts")
      .select("data")
      .where("data", "like", `%${email}%`)
      .executeTakeFirstOrThrow();
    const state = JSON.parse(draft.data).state;
    expect(state).toMatchObject({
      selectedPackage: "growth",
      selectedAddOns: ["crm-integration"],
      source: "utm:newsletter",
      email,
    });
  });

  it("keeps the first visit's utm_source, utm_medium, utm_campaign and referrer on the booking (issue 18.6)", async () => {
    const req = new Request(`${BASE}/booking?utm_source=newsletter&utm_medium=email&utm_campaign=launch%2Fwinter`, {
      headers: { Referer: "https://news.example/post/42?secret=1" },
    });
    const view = await loadBookingStep(db(), req, sampleCatalogue);
    expect(view.draft.state.origin).toBe(
      "utm_source=newsletter&utm_medium=email&utm_campaign=launch%2Fwinter&referrer=https%3A%2F%2Fnews.example%2Fpost%2F42",
    );
    const v = visitor();
    const email = `utm-${Date.now()}@example.com`;
    // A forged carry can only bring the attribution fields, each bounded.
    const carry = `${view.carry}&origin=${encodeURIComponent(`${new URLSearchParams(view.carry).get("origin")}&evil=1`)}`;
    await v.post(1, { selectedPackage: "essentials", name: "Ada", email, company: "Acme", carry, intent: "next" });
    await v.post(2, {
      isNewSite: "on",
      primaryGoal: "portfolio",
      targetAudience: "Design-minded founders",
      intent: "next",
    });
    await v.post(3, {
      inspiration1: "https://stripe.com",
      mustHaveFeatures: "Portfolio grid with filters and a blog",
      intent: "next",
    });
    await v.post(4, { preferredStartDate: inDays(20), timelineFlexibility: "flexible", intent: "next" });
    await v.post(5, { intent: "next" });
    expect((await v.confirm()).location).toBe("/booking/success");
    const booking = await db()
      .selectFrom("bookings")
      .select(["utm_source", "utm_medium", "utm_campaign", "referrer", "source"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(booking).toEqual({
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "launch/winter",
      referrer: "https://news.example/post/42",
      source: "utm:newsletter/email/launch/winter",
    });
  });

  it("save one booking priced on the server, with both emails, however often it is confirmed", async () => {
    const email = `actions-${Date.now()}@example.com`;
    const v = visitor();
    await complete(v, email, { total_amount: "1", price: "1" });
    expect((await statusOf(await v.post(5, { intent: "next" }))).location).toBe("/booking?step=6");
    for (let i = 0; i < 3; i++) expect((await v.confirm()).location).toBe("/booking/success");
    const rows = await db().selectFrom("bookings").selectAll().where("email", "=", email).execute();
    expect(rows).toHaveLength(1);
    // (250000 + 2 × 25000 + 50000) × 0.6
    expect(rows[0]).toMatchObject({
      package_type: "essentials",
      package_price: 250000,
      package_name: "Essentials",
      total_amount: 210000,
      discount_percent: 40,
      status: "pending",
      payment_status: "unpaid",
      amount_paid: 0,
    });
    expect(JSON.parse(rows[0].addons)).toEqual([
      { id: "additional-page", quantity: 2, name: "Additional page", price: 25000 },
      { id: "blog-setup", quantity: 1, name: "Blog setup", price: 50000 },
    ]);
    expect(JSON.parse(rows[0].project_goals)).toEqual(["portfolio"]);
    expect(rows[0].source).toBe(null);
    const mails = await db()
      .selectFrom("email_outbox")
      .select(["to_email", "html_body"])
      .where("text_body", "like", `%${email}%`)
      .execute();
    expect(mails).toHaveLength(2);
  });

  it("escape what visitors type in the emails", async () => {
    const email = `xss-${Date.now()}@example.com`;
    const v = visitor();
    await v.post(1, {
      selectedPackage: "growth",
      name: "<script>alert(1)</script>",
      email,
      company: "Acme & <b>Co</b>",
      intent: "next",
    });
    await v.post(2, {
      isNewSite: "on",
      primaryGoal: "portfolio",
      targetAudience: "Design-minded founders",
      intent: "next",
    });
    await v.post(3, {
      inspiration1: "https://stripe.com",
      mustHaveFeatures: "Portfolio grid with filters and a blog",
      intent: "next",
    });
    await v.post(4, { preferredStartDate: inDays(20), timelineFlexibility: "rush", intent: "next" });
    await v.confirm();
    const mails = await db()
      .selectFrom("email_outbox")
      .select("html_body")
      .where("text_body", "like", `%${email}%`)
      .execute();
    expect(mails).toHaveLength(2);
    for (const m of mails) {
      expect(m.html_body).not.toContain("<script>alert(1)</script>");
      expect(m.html_body).not.toContain("<b>Co</b>");
      expect(m.html_body).toContain("&lt;script&gt;");
    }
  });

  it("store nothing when the honeypot is filled", async () => {
    const email = `bot-${Date.now()}@example.com`;
    const v = visitor();
    await complete(v, email);
    expect((await statusOf(await v.post(6, { intent: "confirm", [HONEYPOT_FIELD]: "spam" }))).location).toBe(
      "/booking/success",
    );
    expect(await db().selectFrom("bookings").select("id").where("email", "=", email).execute()).toEqual([]);
  });

  it("Back keeps what was typed in steps 1 to 3, valid or not, and the step shows it again", async () => {
    const email = `back-${Date.now()}@example.com`;
    const v = visitor();
    await v.post(1, { selectedPackage: "growth", name: "Ada", email, company: "Acme", intent: "next" });
    await v.post(2, {
      websiteUrl: "https://old.example",
      isNewSite: "on",
      primaryGoal: "portfolio",
      targetAudience: "Founders",
      intent: "next",
    });
    // Back from step 2: the box unticked, an audience too short to pass: kept as typed.
    expect(
      (
        await statusOf(
          await v.post(2, { websiteUrl: "", primaryGoal: "ecommerce", targetAudience: "Short", intent: "back" }),
        )
      ).location,
    ).toBe("/booking?step=1");
    const req = new Request(`${BASE}/booking?step=2`, { headers: { Cookie: v.cookie } });
    const { draft } = await loadBookingStep(db(), req, sampleCatalogue);
    expect(draft.state).toMatchObject({ isNewSite: false, primaryGoal: "ecommerce", targetAudience: "Short", email });
  });

  it("answer hostile field names (a huge index, conform's reserved names) with the step's 400, never parsing them", async () => {
    const v = visitor();
    for (const fields of <Record<string, string>[]>[
      { "selectedAddOns[999999999]": "seo", intent: "next" },
      { __state__: "{not json", intent: "next" },
      { __intent__: "{not json", intent: "next" },
      { "name.__proto__.polluted": "yes", "a..b": "x", intent: "next" },
    ]) {
      const r = await statusOf(await v.post(1, fields));
      expect(r.status).toBe(400);
      expect(r.data?.error?.name).toEqual(["Name is required"]);
      // The names were dropped before conform read the form (app/lib/booking-schema.ts): what it
      // parsed, and echoes back, is the plain field alone, so no path was followed and no array of
      // a billion slots was built. This, not a time limit, is what "answered at once" rests on.
      expect(r.data?.initialValue).toEqual({ intent: "next" });
      expect(r.data?.fields).toEqual(["intent"]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
