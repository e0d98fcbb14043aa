import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { e2eQuery, fakes, hydrated } from "../helpers/e2e";
import { bookGrowth, ownerOnBooking, signedCompleted } from "../helpers/owner-e2e";

// Issue 44 "From call to contract": the owner drafts and sends a proposal from the console, the
// client reads and signs it on a page that sends no script, downloads the sealed PDF, and pays the
// deposit through the Stripe fake; or declines it with a reason.

const SHOTS = "/tmp/shots";

/** The owner on the booking's details, at its proposal card. */
async function ownerOn(browser: Browser, bookingId: string, width = 1280) {
  const owner = await ownerOnBooking(browser, bookingId, "prop", width);
  const card = owner.dialog.getByRole("region", { name: "Proposal and contract" });
  await expect(card).toBeVisible();
  return { ...owner, card };
}

/** The owner's console again, read afresh, at the booking's proposal card. */
async function reopenCard(page: Page) {
  await page.reload();
  await hydrated(page);
  return page
    .getByRole("dialog", { name: "Analytical Engines" })
    .getByRole("region", { name: "Proposal and contract" });
}

/** The client signs the open proposal as Ada Lovelace, and the page says so. */
async function signAsAda(page: Page) {
  await page.getByLabel("Full name").fill("Ada Lovelace");
  await page.getByLabel("I agree to these terms and to sign electronically").check();
  await page.getByRole("button", { name: "Accept and sign" }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText(/^Signed on .+ by Ada Lovelace$/);
}

/** Create, save and send the proposal; answers the client's link from the email. */
async function draftAndSend(browser: Browser, bookingId: string, email: string, shot?: string) {
  const owner = await ownerOn(browser, bookingId);
  await owner.card.getByRole("button", { name: "Create proposal" }).click();
  await expect(owner.page.getByText("Proposal drafted from the booking")).toBeVisible();
  const editor = owner.card.getByRole("form", { name: "Edit the proposal" });
  await expect(editor).toBeVisible();
  await editor.getByRole("button", { name: "Save proposal" }).click();
  await expect(owner.page.getByText("Proposal saved")).toBeVisible();
  await expect(owner.card.getByTestId("proposal-status")).toHaveText("Draft");
  await owner.card.getByRole("button", { name: "Send to client" }).click();
  await expect(owner.page.getByText(`Proposal sent to ${email}`)).toBeVisible();
  await expect(owner.card.getByTestId("proposal-status")).toHaveText("Sent");
  if (shot) await owner.card.screenshot({ path: shot });

  const mails = e2eQuery<{ text_body: string; subject: string }>(
    "select text_body, subject from email_outbox where to_email = ? order by id desc",
    email,
  );
  const mail = mails.find((m) => /Read and sign it here: /.test(m.text_body));
  expect(mail, `a proposal email to ${email}; got ${mails.map((m) => m.subject).join(" | ")}`).toBeTruthy();
  const link = /Read and sign it here: (\S+)/.exec(mail!.text_body)![1];
  expect(link).toMatch(/\/proposal\/[A-Za-z0-9_-]+$/);
  return { owner, link };
}

/** Counts the scripts a page requests from now on. */
function countScripts(page: Page) {
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  return scripts;
}

test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

test("the owner sends a proposal, the client signs it without JavaScript, gets a valid signed PDF and pays the deposit", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const email = `client-prop-${Date.now()}@example.com`;
  const bookingId = await bookGrowth(browser, email);
  const { owner, link } = await draftAndSend(
    browser,
    bookingId,
    email,
    path.join(SHOTS, "console-proposal-card-1280.png"),
  );

  // The client's page, JavaScript off, at 390 px.
  const client = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await client.newPage();
  const scripts = countScripts(page);
  const res = await page.goto(link);
  expect(res!.status()).toBe(200);
  const html = await res!.text();
  expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
  await expect(page.getByRole("heading", { name: "Accept and sign" })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, "client-proposal-open-390.png"), fullPage: true });

  // An empty name is refused, by the server (the form has noValidate).
  await page.getByRole("button", { name: "Accept and sign" }).click();
  await expect(page.getByText("Please type your full name (at least 2 characters)")).toBeVisible();
  await signAsAda(page);
  const deposit = page.getByTestId("deposit-state");
  await expect(deposit).toContainText("due now");
  await expect(deposit.getByRole("link", { name: "Pay the deposit" })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, "client-proposal-signed-390.png"), fullPage: true });
  expect(scripts).toEqual([]);

  // The sealed PDF carries a valid signature.
  const href = (await page.getByTestId("signed-pdf").getAttribute("href"))!;
  const pdf = await page.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toContain("application/pdf");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "proposal-pdf-")), "signed.pdf");
  fs.writeFileSync(file, await pdf.body());
  let sig = "";
  try {
    sig = execFileSync("/usr/bin/pdfsig", [file], { encoding: "utf8" });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    sig = `${err.stdout ?? ""}${err.stderr ?? ""}`;
  }
  expect(sig).toContain("Signature is Valid.");

  // The deposit email.
  const [depositMail] = e2eQuery<{ text_body: string }>(
    "select text_body from email_outbox where to_email = ? and subject = 'Signed, here is your deposit'",
    email,
  );
  expect(depositMail).toBeTruthy();
  expect(depositMail.text_body).toMatch(/Pay here: \S+\/pay\//);

  // The client pays through the Stripe fake.
  await deposit.getByRole("link", { name: "Pay the deposit" }).click();
  await expect(page).toHaveURL(/\/pay\/[A-Za-z0-9_-]+$/);
  const payPath = new URL(page.url()).pathname;
  await expect(page.getByTestId("invoice-pdf")).toBeVisible();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/pay\/cs_test_/);
  const sessionId = page.url().split("/pay/")[1];
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(/\/pay\/[A-Za-z0-9_-]+\?paid=1$/);
  const session = await (await request.get(`${fakes()}/v1/checkout/sessions/${sessionId}`)).json();
  expect(session).toMatchObject({ payment_status: "paid", metadata: { booking_id: bookingId } });
  const { payload, header } = signedCompleted(`evt_${sessionId}_a`, session);
  const hook = await request.post("/webhooks/stripe", {
    data: payload,
    headers: { "stripe-signature": header, "content-type": "application/json" },
  });
  expect(hook.status()).toBe(200);

  await page.goto(payPath);
  await expect(page.getByRole("status")).toContainText("Paid on");
  const year = new Date().getFullYear();
  await expect(page.getByText(new RegExp(`Invoice INV-${year}-\\d{4}`))).toBeVisible();
  await expect(page.getByTestId("receipt-pdf")).toBeVisible();
  const [inv] = e2eQuery<{ number: string }>("select number from invoices where booking_id = ?", bookingId);
  await expect(page.getByText(`Invoice ${inv.number}`)).toBeVisible();

  // The proposal page now says the deposit is paid; so does the console.
  await page.goto(link);
  await expect(page.getByTestId("deposit-state")).toContainText("paid. Thank you!");
  const card = await reopenCard(owner.page);
  await expect(card.getByTestId("proposal-status")).toHaveText("Signed");
  await expect(card).toContainText("Signed by Ada Lovelace");
  await expect(
    owner.page
      .getByRole("dialog", { name: "Analytical Engines" })
      .getByRole("region", { name: "Payment plan" })
      .getByRole("listitem")
      .first(),
  ).toContainText("Paid");
  await owner.context.close();
  await client.close();
});

test("the client declines a proposal with a reason, and the console shows it", async ({ browser }) => {
  test.setTimeout(90_000);
  const email = `client-decline-${Date.now()}@example.com`;
  const bookingId = await bookGrowth(browser, email);
  const { owner, link } = await draftAndSend(browser, bookingId, email);

  const client = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await client.newPage();
  await page.goto(link);
  await page.screenshot({ path: path.join(SHOTS, "client-proposal-open-1280.png"), fullPage: true });
  await page.getByText("Decline this proposal").click();
  await page.getByLabel("Reason (optional, sent to the studio)").fill("The budget moved to next year.");
  await page.getByRole("button", { name: "Decline", exact: true }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText(/^You declined this proposal on .+\.$/);
  await expect(page.getByRole("button", { name: "Accept and sign" })).toHaveCount(0);

  const card = await reopenCard(owner.page);
  await expect(card.getByTestId("proposal-status")).toHaveText("Declined");
  await expect(card).toContainText("Reason given: “The budget moved to next year.”");
  await owner.context.close();
  await client.close();
});

test("at 390 px with JavaScript on, the client signs the proposal", async ({ browser }) => {
  test.setTimeout(90_000);
  const email = `client-js-${Date.now()}@example.com`;
  const bookingId = await bookGrowth(browser, email);
  const { owner, link } = await draftAndSend(browser, bookingId, email);
  await owner.context.close();

  const client = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await client.newPage();
  const scripts = countScripts(page);
  await page.goto(link);
  await page.getByLabel("Full name").fill("Ada Lovelace");
  await page.getByLabel("I agree to these terms and to sign electronically").check();
  const box = (await page.getByRole("button", { name: "Accept and sign" }).boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.getByRole("button", { name: "Accept and sign" }).click();
  await expect(page.getByTestId("proposal-state")).toHaveText(/^Signed on .+ by Ada Lovelace$/);
  await expect(page.getByTestId("deposit-state")).toContainText("due now");
  expect(scripts).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await client.close();
});

test("a proposal past its day says so, and the owner's extension opens it again", async ({ browser }) => {
  test.setTimeout(90_000);
  const email = `client-expired-${Date.now()}@example.com`;
  const bookingId = await bookGrowth(browser, email);
  const { owner, link } = await draftAndSend(browser, bookingId, email);
  // Time passing, as the test can make it: the proposal's last day was yesterday.
  const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  e2eQuery("update proposals set expires_on = ? where booking_id = ?", yesterday, bookingId);

  const client = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await client.newPage();
  await page.goto(link);
  await expect(page.getByTestId("proposal-state")).toHaveText(/^This proposal expired on .+\.$/);
  await expect(page.getByRole("button", { name: "Accept and sign" })).toHaveCount(0);

  const card = await reopenCard(owner.page);
  await expect(card.getByTestId("proposal-status")).toHaveText("Expired");
  const later = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await card.getByLabel("Open until").fill(later);
  await card.getByRole("button", { name: "Extend" }).click();
  await expect(owner.page.getByText("Expiry date changed")).toBeVisible();
  await expect(card.getByTestId("proposal-status")).toHaveText("Sent");

  await page.reload();
  await signAsAda(page);
  const kinds = e2eQuery<{ kind: string }>(
    "select e.kind from proposal_events e join proposals p on p.id = e.proposal_id where p.booking_id = ? order by e.id",
    bookingId,
  ).map((r) => r.kind);
  expect(kinds.filter((k) => k === "expired")).toHaveLength(1);
  expect(kinds).toContain("extended");
  expect(kinds.at(-1)).toBe("signed");
  await owner.context.close();
  await client.close();
});
