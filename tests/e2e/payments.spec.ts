import fs from "node:fs";
import { expect, test, type Browser } from "@playwright/test";
import { e2eQuery, fakes, hydrated, signInAs } from "../helpers/e2e";
import { bookGrowth, ownerOnBooking, signedCompleted } from "../helpers/owner-e2e";

// Issue 31: getting paid for a booking. The server under test talks to the Stripe fake
// (tests/helpers/stripe-fake.mjs) with STRIPE_WEBHOOK_SECRET "whsec_e2e" (playwright.config.ts).

async function ownerOn(browser: Browser, bookingId: string, width = 1280) {
  const owner = await ownerOnBooking(browser, bookingId, "pay", width);
  const plan = owner.dialog.getByRole("region", { name: "Payment plan" });
  await expect(plan.getByRole("listitem").first()).toContainText("Deposit");
  return { ...owner, plan };
}

test("the owner requests the Growth deposit, the client pays through the emailed link, and two webhook deliveries make one $1,700 payment", async ({
  browser,
  request,
}) => {
  // The whole journey: a booking, the console, the client's payment, two webhooks, a refund and the
  // ledger's CSV (about 17 s alone, twice that beside another browser on two cores).
  test.setTimeout(90_000);
  const email = `client-pay-${Date.now()}@example.com`;
  const bookingId = await bookGrowth(browser, email);
  const owner = await ownerOn(browser, bookingId);
  await expect(owner.plan).toContainText("$1,700");
  await expect(owner.plan).toContainText("$4,250");
  await expect(owner.plan).toContainText("$2,550");

  await owner.plan.getByRole("button", { name: "Request payment for Deposit" }).click();
  const confirm = owner.page.getByRole("dialog", { name: "Request payment" });
  await expect(confirm).toContainText("$1,700");
  await confirm.getByRole("button", { name: "Send request" }).click();
  await expect(owner.page.getByText(/Payment requested: Ada Lovelace was emailed a link/)).toBeVisible();
  await expect(owner.plan.getByRole("listitem").first()).toContainText(/Requested · due/);
  await expect(owner.plan.getByRole("button", { name: "Send reminder for Deposit" })).toBeVisible();

  // The client's email, and the link in it.
  const [mail] = e2eQuery<{ text_body: string; subject: string }>(
    "select text_body, subject from email_outbox where to_email = ? and subject like 'Payment request%'",
    email,
  );
  expect(mail.subject).toBe("Payment request from Studio Rowan: Deposit, $1,700");
  const link = /Pay here: (\S+)/.exec(mail.text_body)![1];

  const client = await browser.newContext();
  const pay = await client.newPage();
  await pay.goto(link);
  await expect(pay.getByRole("heading", { name: "Deposit" })).toBeVisible();
  await expect(pay.getByTestId("pay-amount")).toHaveText("$1,700");
  await pay.screenshot({ path: test.info().outputPath("pay-1280.png") });
  await pay.setViewportSize({ width: 390, height: 844 });
  await pay.screenshot({ path: test.info().outputPath("pay-390.png"), fullPage: true });
  await pay.getByRole("button", { name: "Pay $1,700" }).click();
  // Stripe's hosted page: the amount, the client's email and what it is for.
  await expect(pay).toHaveURL(new RegExp(`${fakes().replace(/[.:/]/g, "\\$&")}/pay/cs_test_`));
  const sessionId = pay.url().split("/pay/")[1];
  await expect(pay.locator("#amount")).toHaveText("170000");
  await expect(pay.locator("#email")).toHaveText(email);
  await expect(pay.locator("#product")).toContainText("Deposit");
  await pay.getByRole("button", { name: "Pay $1700.00" }).click();
  await expect(pay).toHaveURL(/\/pay\/[A-Za-z0-9_-]+\?paid=1$/);
  await expect(pay.getByRole("status")).toContainText("Stripe is confirming your payment");

  // Stripe delivers the event twice.
  const session = await (await request.get(`${fakes()}/v1/checkout/sessions/${sessionId}`)).json();
  expect(session).toMatchObject({ payment_status: "paid", metadata: { booking_id: bookingId } });
  for (const attempt of ["a", "b"]) {
    const { payload, header } = signedCompleted(`evt_${sessionId}_${attempt}`, session);
    const res = await request.post("/webhooks/stripe", {
      data: payload,
      headers: { "stripe-signature": header, "content-type": "application/json" },
    });
    expect(res.status()).toBe(200);
  }

  await pay.reload();
  await expect(pay.getByRole("status")).toContainText("Paid on");
  await expect(pay.getByRole("button", { name: /Pay/ })).toHaveCount(0);

  await owner.page.reload();
  await hydrated(owner.page);
  const deposit = owner.page
    .getByRole("dialog", { name: "Analytical Engines" })
    .getByRole("region", { name: "Payment plan" })
    .getByRole("listitem")
    .first();
  await expect(deposit).toContainText("Paid");
  await expect(deposit).toContainText("$1,700 · Card (Stripe)");
  await expect(deposit).toContainText(`pi_${sessionId}`);
  const ledger = e2eQuery<{ amount: number; method: string }>(
    "select amount, method from payments where booking_id = ?",
    bookingId,
  );
  expect(ledger).toEqual([{ amount: 170000, method: "card" }]);
  await expect(
    owner.page.getByRole("dialog", { name: "Analytical Engines" }).getByTestId("plan-summary"),
  ).toContainText("$1,700 of $8,500 paid");
  await owner.page
    .getByRole("dialog", { name: "Analytical Engines" })
    .getByRole("region", { name: "Payment plan" })
    .screenshot({ path: test.info().outputPath("plan-1280.png") });

  // The month's money received includes it; open quotes are only the pipeline.
  await owner.page.goto("/admin?tab=overview");
  await hydrated(owner.page);
  const bookingsPaid = await owner.page.getByTestId("money-bookings").textContent();
  expect(Number(bookingsPaid!.replace(/[$,]/g, ""))).toBeGreaterThanOrEqual(1700);
  await expect(owner.page.getByTestId("money-pipeline")).toContainText("(not revenue)");
  await expect(owner.page.getByTestId("money-chart")).toBeVisible();
  const moneyCard = owner.page.getByRole("region", { name: "Money received" });
  await moneyCard.screenshot({ path: test.info().outputPath("money-1280.png") });
  await owner.page.setViewportSize({ width: 390, height: 844 });
  await moneyCard.screenshot({ path: test.info().outputPath("money-390.png") });
  await owner.page.setViewportSize({ width: 1280, height: 900 });

  // A partial refund from the console reaches Stripe once and shows in the ledger.
  await owner.page.goto(`/admin?tab=bookings&booking=${bookingId}`);
  await hydrated(owner.page);
  await owner.page.getByRole("button", { name: "Refund the Deposit payment" }).click();
  const refund = owner.page.getByRole("dialog", { name: "Refund payment" });
  await refund.getByLabel("Amount to refund (USD)").fill("2000");
  // Over what is left, the button no longer names an amount; pressing it says why.
  await refund.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(refund.getByRole("alert")).toHaveText("That is more than is left of this payment ($1,700).");
  await refund.getByLabel("Amount to refund (USD)").fill("500");
  await refund.getByRole("button", { name: "Refund $500" }).click();
  await expect(owner.page.getByText("Refunded $500")).toBeVisible();
  await expect(deposit).toContainText("$500 refunded");
  const refunds = (await (await request.get(`${fakes()}/__stripe/requests`)).json()).filter(
    (r: { path: string; form: { payment_intent?: string } }) =>
      r.path === "/v1/refunds" && r.form.payment_intent === `pi_${sessionId}`,
  );
  expect(refunds).toHaveLength(1);
  const csv = await (await owner.page.request.get("/admin/export/ledger.csv")).text();
  expect(csv.split("\n").filter((line) => line.includes(`pi_${sessionId}`))).toEqual([
    expect.stringContaining("Refund"),
    expect.stringContaining("Payment"),
  ]);
  expect(csv).toContain("-500.00");
  await owner.context.close();
  await client.close();
});

test("a template purchase refunded in full from the console reaches Stripe once and loses its download", async ({
  browser,
  request,
}) => {
  // A paid checkout at the Stripe fake, and the purchase and ledger row it made.
  const created = await (
    await request.post(`${fakes()}/v1/checkout/sessions`, {
      form: {
        mode: "payment",
        "line_items[0][quantity]": "1",
        "line_items[0][price_data][unit_amount]": "7900",
        "line_items[0][price_data][currency]": "usd",
      },
    })
  ).json();
  await request.post(`${fakes()}/pay/${created.id}/complete`);
  const intent = `pi_${created.id}`;
  const buyer = `buyer-refund-${Date.now()}@example.com`;
  const userId = `u-${Date.now()}`;
  const [tpl] = e2eQuery<{ id: string; name: string }>("select id, name from templates where slug = 'atelier'");
  e2eQuery("insert into users (id, email) values (?, ?)", userId, buyer);
  e2eQuery(
    "insert into purchases (id, user_id, template_id, amount_paid, license_key, stripe_session_id, stripe_payment_intent) values (?, ?, ?, 7900, ?, ?, ?)",
    `p-${userId}`,
    userId,
    tpl.id,
    `K-${userId}`,
    created.id,
    intent,
  );
  e2eQuery(
    "insert into payments (id, kind, amount, method, purchase_id, party, subject, stripe_payment_intent, stripe_checkout_session, occurred_at) values (?, 'payment', 7900, 'card', ?, ?, ?, ?, ?, ?)",
    `pay-${userId}`,
    `p-${userId}`,
    buyer,
    `${tpl.name} template`,
    intent,
    created.id,
    new Date().toISOString(),
  );

  const context = await browser.newContext();
  await signInAs(context, `owner-refund-${Date.now()}@example.com`, "admin");
  const page = await context.newPage();
  await page.goto(`/admin?tab=purchases&q=${encodeURIComponent(buyer)}`);
  await hydrated(page);
  await page.getByRole("button", { name: `Refund ${tpl.name} for ${buyer}` }).click();
  const dialog = page.getByRole("dialog", { name: "Refund payment" });
  await expect(dialog).toContainText("a full refund also takes the template's download away");
  await dialog.getByRole("button", { name: "Refund $79" }).click();
  await expect(page.getByText("Refunded $79")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: buyer })).toContainText("No access");
  const refunds = (await (await request.get(`${fakes()}/__stripe/requests`)).json()).filter(
    (r: { path: string; form: { payment_intent?: string } }) =>
      r.path === "/v1/refunds" && r.form.payment_intent === intent,
  );
  expect(refunds).toHaveLength(1);
  expect(e2eQuery("select status from purchases where id = ?", `p-${userId}`)).toEqual([{ status: "refunded" }]);
  expect(e2eQuery("select amount from payments where kind = 'refund' and purchase_id = ?", `p-${userId}`)).toEqual([
    { amount: 7900 },
  ]);
  await context.close();
});

test("the owner edits a stage, sees that the plan no longer adds up, and a bad amount changes nothing", async ({
  browser,
}) => {
  const bookingId = await bookGrowth(browser, `client-edit-${Date.now()}@example.com`);
  const owner = await ownerOn(browser, bookingId);
  const deposit = owner.plan.getByRole("listitem").first();
  await deposit.getByRole("button", { name: "Edit Deposit" }).click();
  const amount = owner.plan.getByLabel("Amount (USD)");
  await amount.fill("0");
  await owner.plan.getByRole("button", { name: "Save stage" }).click();
  await expect(owner.plan.getByRole("alert")).toHaveText("Enter an amount above $0");
  await amount.fill("2000.005");
  await owner.plan.getByRole("button", { name: "Save stage" }).click();
  await expect(owner.plan.getByRole("alert")).toHaveText("Amounts are in whole cents (at most two decimals)");
  expect(
    e2eQuery<{ amount: number }>("select amount from booking_stages where booking_id = ? and position = 0", bookingId),
  ).toEqual([{ amount: 170000 }]);
  await amount.fill("2000");
  await owner.plan.getByRole("button", { name: "Save stage" }).click();
  await expect(owner.page.getByText("Stage saved")).toBeVisible();
  await expect(owner.plan.getByRole("status").filter({ hasText: "add up to" })).toHaveText(
    "The stages add up to $8,800, $300 more than the booking's total of $8,500.",
  );
  await owner.context.close();
});

test("at 390 px the booking's plan fits the screen", async ({ browser }, testInfo) => {
  const bookingId = await bookGrowth(browser, `client-narrow-${Date.now()}@example.com`);
  const owner = await ownerOn(browser, bookingId, 390);
  const overflow = await owner.page.evaluate(() => {
    const plan = document.querySelector('[aria-labelledby^="plan-"]') as HTMLElement;
    const r = plan.getBoundingClientRect();
    return { right: r.right, width: window.innerWidth, scroll: plan.scrollWidth - plan.clientWidth };
  });
  expect(overflow.right).toBeLessThanOrEqual(overflow.width);
  expect(overflow.scroll).toBe(0);
  for (const name of ["Request payment for Deposit", "Edit Deposit"]) {
    const box = (await owner.plan.getByRole("button", { name }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  const shot = testInfo.outputPath("payment-plan-390.png");
  await owner.plan.screenshot({ path: shot });
  expect(fs.statSync(shot).size).toBeGreaterThan(1000);
  await owner.context.close();
});
