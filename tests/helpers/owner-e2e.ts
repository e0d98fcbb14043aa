import { expect, type Browser } from "@playwright/test";
import Stripe from "stripe";
import { toStep6 } from "./booking-e2e";
import { e2eQuery, hydrated, signInAs } from "./e2e";

/**
 * What the browser suites of a booking's money and contract share (payments.spec.ts,
 * proposals.spec.ts): a Growth booking made as a visitor makes it, the owner on its details in the
 * console, and Stripe's signed webhook delivery. The server under test talks to the Stripe fake
 * with STRIPE_WEBHOOK_SECRET "whsec_e2e" (playwright.config.ts).
 */

/** A booking made through the wizard (plain form posts), as a visitor makes it: its plan comes with it. */
export async function bookGrowth(browser: Browser, email: string): Promise<string> {
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const page = await visitor.newPage();
  await toStep6(page, email);
  await page.getByRole("button", { name: "Confirm booking" }).click();
  await expect(page).toHaveURL(/\/booking\/success/);
  await visitor.close();
  return e2eQuery<{ id: string }>("select id from bookings where email = ?", email)[0].id;
}

/** An admin (a fresh one, `who` in the address) on the booking's details in the console at `width`. */
export async function ownerOnBooking(browser: Browser, bookingId: string, who: string, width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await signInAs(context, `owner-${who}-${width}-${Date.now()}@example.com`, "admin");
  const page = await context.newPage();
  await page.goto(`/admin?tab=bookings&booking=${bookingId}`);
  await hydrated(page);
  const dialog = page.getByRole("dialog", { name: "Analytical Engines" });
  return { context, page, dialog };
}

/** Stripe's signed delivery of `checkout.session.completed`, as its servers send it. */
export function signedCompleted(eventId: string, session: unknown) {
  const payload = JSON.stringify({
    id: eventId,
    object: "event",
    type: "checkout.session.completed",
    api_version: "2025-01-27.acacia",
    created: Math.floor(Date.now() / 1000),
    data: { object: session },
  });
  const header = new Stripe("sk_test_e2e").webhooks.generateTestHeaderString({ payload, secret: "whsec_e2e" });
  return { payload, header };
}
