import { expect, test, type Page } from "@playwright/test";
import { sampleIdentity } from "#domain/sample/site";
import { sampleCatalogue } from "#domain/sample/catalogue";
import { previewsServed, sampleEmails } from "../../server/admin/mail-samples.server";
import { e2eQuery, latestMagicLink } from "../helpers/e2e";

/**
 * Issue 21: every message the studio sends, built by the code that sends it (with sample data),
 * rendered in Chromium at 390 px: nothing wider than the screen, every link absolute, the main
 * link where it belongs, a plain-text part carrying it too, and a footer with the studio's name
 * and where to write. The magic link is also checked as a real request writes it to the outbox.
 */

const APP = "https://studio.example";
const settings = {
  APP_URL: APP,
  STUDIO_EMAIL: "studio@example.com",
  STUDIO_TIMEZONE: "America/New_York",
  CALENDLY_URL: "https://calendly.com/studio-rowan/consultation",
  studio: { identity: sampleIdentity, catalogue: sampleCatalogue },
};
const samples = sampleEmails(settings);

/** What each message must link to (a prefix of its main link), in its HTML and its text. */
const MAIN_LINK: Record<string, string> = {
  "magic-link": `${APP}/auth/callback?token=`,
  "booking-confirmation": "https://meet.example.com/",
  "booking-confirmation-unscheduled": settings.CALENDLY_URL,
  "studio-notification": `${APP}/admin?tab=bookings&booking=`,
  "reminder-24h": "https://meet.example.com/",
  "reminder-1h": "https://meet.example.com/",
  receipt: `${APP}/files/template-files/marginalia.zip?exp=`,
};

async function checkAt390(page: Page, html: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.setContent(html);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    widest: Math.max(...[...document.body.querySelectorAll("*")].map((e) => e.getBoundingClientRect().right)),
  }));
  expect(widths.page).toBeLessThanOrEqual(390);
  expect(widths.widest).toBeLessThanOrEqual(390);
  const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs.length).toBeGreaterThan(0);
  for (const h of hrefs) expect(h).toMatch(/^(https?:\/\/[^\s]+|mailto:[^\s@]+@[^\s@]+)$/);
  // The footer: the studio's name and a support address.
  await expect(page.getByText("Studio Rowan ·")).toBeVisible();
  await expect(page.getByRole("link", { name: "hello@studiorowan.example" })).toHaveAttribute(
    "href",
    "mailto:hello@studiorowan.example",
  );
  return hrefs;
}

test("every email reads at 390 px: no overflow, absolute links, the main link in HTML and text", async ({ page }) => {
  expect(samples.map((s) => s.id).sort()).toEqual(Object.keys(MAIN_LINK).sort());
  for (const { id, mail } of samples) {
    await test.step(id, async () => {
      const hrefs = await checkAt390(page, mail.html);
      expect(
        hrefs.some((h) => h.startsWith(MAIN_LINK[id])),
        `${id}: ${hrefs.join(" ")}`,
      ).toBe(true);
      expect(mail.text, id).toContain(MAIN_LINK[id]);
      expect(mail.text.trim().length).toBeGreaterThan(80);
    });
  }
});

test("details each message promises", async ({ page }) => {
  const by = (id: string) => samples.find((s) => s.id === id)!.mail;
  // Magic link: the button, the full link to paste, how long it works.
  const magic = by("magic-link");
  await page.setContent(magic.html);
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", /\/auth\/callback\?token=/);
  const link = (await page.getByRole("link", { name: "Sign in" }).getAttribute("href"))!;
  await expect(page.getByRole("link", { name: link })).toBeVisible();
  await expect(
    page.getByText(/Use the button below to sign in. The link works once and expires in 10 minutes/),
  ).toBeVisible();
  // Receipt: order number, date, amount, license key, download link, and what to do once it expires.
  const receipt = by("receipt");
  await page.setContent(receipt.html);
  for (const [label, value] of [
    ["Order", "SR-4F9C2A7E"],
    ["Date", new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date())],
    ["Amount paid", "$59.00"],
    ["License key", "ABCD2345-EFGH6789-JKLM2345-NPQR6789"],
  ])
    await expect(page.locator("p").filter({ has: page.getByText(label, { exact: true }) })).toContainText(value);
  await expect(page.getByRole("link", { name: "Download your files" })).toBeVisible();
  await expect(page.getByText(/After that, sign in with ada@example.com/)).toBeVisible();
  expect(receipt.text).toContain("Order: SR-4F9C2A7E");
  // Booking confirmation: the review's answers by section, no internal fields.
  const confirmation = by("booking-confirmation");
  await page.setContent(confirmation.html);
  for (const t of [
    "Package & contact",
    "Project details",
    "Inspiration & features",
    "Timeline & add-ons",
    "Brand assets",
  ])
    await expect(page.getByText(t, { exact: true })).toBeVisible();
  expect(confirmation.html).not.toContain("Source");
  expect(confirmation.text).not.toContain("Source");
  expect(confirmation.text).not.toContain("utm:newsletter");
  expect(confirmation.attachments?.map((a) => a.filename)).toEqual(["consultation.ics"]);
  // The studio's notification keeps the source.
  expect(by("studio-notification").text).toContain("Source: utm:newsletter");
});

test("dark-mode safe: a reader's dark setting gets light text on a dark card", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setContent(samples.find((s) => s.id === "receipt")!.mail.html);
  const colours = await page.evaluate(() => {
    const card = document.querySelector(".em-card")!;
    const text = document.querySelector(".em-text")!;
    return { card: getComputedStyle(card).backgroundColor, text: getComputedStyle(text).color };
  });
  expect(colours).toEqual({ card: "rgb(34, 31, 27)", text: "rgb(244, 239, 230)" });
});

test("a real magic link, as the outbox holds it, reads at 390 px", async ({ page, request }) => {
  const email = `mail-390-${Date.now()}@example.com`;
  expect((await request.post("/auth/email", { form: { email } })).status()).toBe(200);
  const [row] = e2eQuery<{ html_body: string; text_body: string }>(
    "select html_body, text_body from email_outbox where to_email = ? order by id desc limit 1",
    email,
  );
  const hrefs = await checkAt390(page, row.html_body);
  expect(hrefs).toContain(latestMagicLink(email));
});

test("the preview page is served by `npm run dev` only: a 404 here, in production", async ({ request }) => {
  expect(previewsServed({ NODE_ENV: "development" })).toBe(true);
  expect(previewsServed({ NODE_ENV: "production" })).toBe(false);
  expect((await request.get("/dev/emails")).status()).toBe(404);
  expect((await request.get("/dev/emails/receipt")).status()).toBe(404);
});
