/**
 * Getting paid for a project (issue 31): the payment plan, Stripe payment requests through the
 * real SDK against the local Stripe fake (tests/helpers/stripe-fake.mjs), the signed webhook
 * recording a stage once, the /pay page's checkout, reminders and bad input. Real SQLite per test.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBusinessDays, AMOUNT_MESSAGES, PLAN_MESSAGES, todayIn } from "#domain/payment-plan";
import { setBookingStatus } from "../../server/admin/bookings.server";
import { addStage, createPlan, paymentPlan, removeStage, updateStage } from "../../server/payments/plan.server";
import { recordPayment } from "../../server/payments/ledger.server";
import {
  CARD_PAYMENTS_NEED_STRIPE,
  checkoutForToken,
  payPage,
  requestStagePayment,
  sendStageReminder,
} from "../../server/payments/requests.server";
import { env } from "../../server/env.server";
import { retryPendingMail } from "../../server/email/mailer.server";
import { handleStripeWebhook } from "../../server/http/stripe-webhook.server";
import { moneyView } from "../../server/payments/money.server";
import { adminStats } from "../../server/admin/stats.server";
import { ledgerCsv } from "../../server/admin/export.server";
import { ensureUser } from "../../server/auth/users.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { fulfilCheckout, purchaseFor } from "../../server/shop/purchases.server";
import { REFUND_MESSAGES, refundPayment } from "../../server/payments/refunds.server";
import { checkoutMetadata } from "../../server/shop/checkout.server";
import { DomainError } from "../../server/errors";
import { httpStatusOf, trpcCodeOf } from "../../server/http/domain-errors";
import { freshDb, type TestDb } from "../helpers/db";
import { createStripeFake } from "../helpers/stripe-fake.mjs";

const WEBHOOK_SECRET = "whsec_payments";
let base = "";
let stripe: ReturnType<typeof createStripeFake>;
const server = http.createServer(async (req, res) => {
  if (!(await stripe.handle(req, res))) {
    res.writeHead(404);
    res.end();
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stripe = createStripeFake({ base });
  // Read once per process by env(); this file runs in its own process.
  process.env.STRIPE_SECRET_KEY = "sk_test_payments";
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.STRIPE_API_BASE = base;
  process.env.STUDIO_TIMEZONE = "America/New_York";
  expect(env().STRIPE_API_BASE).toBe(base);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const GROWTH_TOTAL = 850_000;

async function booking(t: TestDb, id = "b1", total = GROWTH_TOTAL, status: "pending" | "cancelled" = "pending") {
  await t.db
    .insertInto("bookings")
    .values({
      id,
      user_id: null,
      email: "ada@client.example",
      full_name: "Ada Client",
      company_name: "Lovelace Labs",
      phone: null,
      package_type: "growth",
      package_name: "Growth",
      package_price: 850_000,
      total_amount: total,
      website_url: null,
      desired_start_date: "2027-01-01",
      source: null,
      status,
    })
    .execute();
  await createPlan(t.db, id, total);
  return (await paymentPlan(t.db, id, "UTC"))!;
}

/** A database with the sample catalogue, a buyer, and the Atelier template they may buy. */
async function buyerAndAtelier() {
  const t = await freshDb();
  await seedDemoCatalogue(t.db, t.dataDir);
  const user = await ensureUser(t.db, "buyer@example.com");
  const tpl = await t.db
    .selectFrom("templates")
    .select(["id", "price"])
    .where("slug", "=", "atelier")
    .executeTakeFirstOrThrow();
  return { t, user, tpl };
}

/** A Checkout Session for `amount` made at the Stripe fake and paid there. */
async function paidCheckoutSession(amount: number) {
  const created = await (
    await fetch(`${base}/v1/checkout/sessions`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        mode: "payment",
        "line_items[0][quantity]": "1",
        "line_items[0][price_data][unit_amount]": String(amount),
        "line_items[0][price_data][currency]": "usd",
      }),
    })
  ).json();
  return stripe.complete(created.id)!;
}

function signed(event: { id: string; type: string; object: unknown }) {
  const payload = JSON.stringify({
    id: event.id,
    object: "event",
    type: event.type,
    api_version: "2025-01-27.acacia",
    created: Math.floor(Date.now() / 1000),
    data: { object: event.object },
  });
  const header = new Stripe("sk_test_payments").webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return new Request("http://localhost/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "stripe-signature": header, "content-type": "application/json" },
  });
}

async function outbox(t: TestDb) {
  return t.db
    .selectFrom("email_outbox")
    .select(["to_email", "subject", "status", "stage_id", "next_attempt_at", "text_body"])
    .orderBy("id")
    .execute();
}

describe("the payment plan", () => {
  it("starts as Deposit 20%, Design approval 50%, Final delivery 30% of the total, adding up exactly", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    expect(plan.stages.map((s) => [s.label, s.amount, s.state])).toEqual([
      ["Deposit", 170_000, "planned"],
      ["Design approval", 425_000, "planned"],
      ["Final delivery", 255_000, "planned"],
    ]);
    expect(plan.mismatch).toBeNull();
    // An odd total: the last stage takes the rounding.
    const odd = await booking(t, "b2", 100_001);
    expect(odd.stages.map((s) => s.amount)).toEqual([20_000, 50_001, 30_000]);
    expect(odd.stages.reduce((sum, s) => sum + s.amount, 0)).toBe(100_001);
    await t.close();
  });

  it("lets the owner change, add and remove stages before they are requested, and says when they do not add up", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const [deposit, design] = plan.stages;
    await updateStage(t.db, "b1", deposit.id, { amount: "2,000" });
    await updateStage(t.db, "b1", design.id, { percent: "40", label: "  Design   sign-off " });
    let now = (await paymentPlan(t.db, "b1", "UTC"))!;
    expect(now.stages.map((s) => [s.label, s.amount])).toEqual([
      ["Deposit", 200_000],
      ["Design sign-off", 340_000],
      ["Final delivery", 255_000],
    ]);
    expect(now.mismatch).toBe("The stages add up to $7,950, $550 less than the booking's total of $8,500.");
    const extra = await addStage(t.db, "b1", { label: "Launch support" });
    now = (await paymentPlan(t.db, "b1", "UTC"))!;
    expect(now.stages.at(-1)).toMatchObject({ id: extra, label: "Launch support", amount: 55_000 });
    expect(now.mismatch).toBeNull();
    await removeStage(t.db, "b1", extra);
    expect((await paymentPlan(t.db, "b1", "UTC"))!.stages).toHaveLength(3);
    await t.close();
  });

  it("refuses amounts of zero, negative, fractional cents or above what is left, and changes nothing", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const deposit = plan.stages[0];
    for (const [amount, message] of [
      ["0", AMOUNT_MESSAGES.positive],
      ["-5", AMOUNT_MESSAGES.positive],
      ["17.005", AMOUNT_MESSAGES.cents],
      ["lots", AMOUNT_MESSAGES.invalid],
    ]) {
      await expect(updateStage(t.db, "b1", deposit.id, { amount })).rejects.toThrow(message);
      await expect(recordPayment(t.db, "b1", { amount })).rejects.toThrow(message);
    }
    await expect(recordPayment(t.db, "b1", { amount: "8500.01" })).rejects.toThrow(
      "That is more than is left of the total ($8,500).",
    );
    const after = (await paymentPlan(t.db, "b1", "UTC"))!;
    expect(after.stages.map((s) => s.amount)).toEqual([170_000, 425_000, 255_000]);
    expect(after.paid).toBe(0);
    expect(await t.db.selectFrom("payments").selectAll().execute()).toEqual([]);
    await t.close();
  });

  it("counts a recorded transfer toward the first unpaid stage, and a paid stage cannot be edited", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const r = await recordPayment(t.db, "b1", { amount: "1700", method: "bank", note: "Wire 1183" });
    expect(r).toMatchObject({ recorded: true, stagePaid: true, amountPaid: 170_000, paymentStatus: "partial" });
    const now = (await paymentPlan(t.db, "b1", "UTC"))!;
    expect(now.stages[0]).toMatchObject({ state: "paid", editable: false });
    expect(now.stages[0].payments).toEqual([expect.objectContaining({ amount: 170_000, method: "bank" })]);
    await expect(updateStage(t.db, "b1", plan.stages[0].id, { amount: "1" })).rejects.toThrow(PLAN_MESSAGES.paidLocked);
    await expect(removeStage(t.db, "b1", plan.stages[0].id)).rejects.toThrow(PLAN_MESSAGES.paidLocked);
    const ledger = await t.db.selectFrom("payments").selectAll().execute();
    expect(ledger).toEqual([
      expect.objectContaining({
        kind: "payment",
        amount: 170_000,
        method: "bank",
        booking_id: "b1",
        stage_id: plan.stages[0].id,
        party: "Ada Client <ada@client.example>",
        note: "Wire 1183",
      }),
    ]);
    await t.close();
  });
});

describe("requesting a stage", () => {
  it("makes one Checkout Session for exactly the stage, emails the client once, and schedules two reminders", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const deposit = plan.stages[0];
    const before = stripe.requests.length;
    const now = new Date("2026-11-27T15:00:00Z"); // a Friday
    // A double click: two requests at once.
    const [a, b] = await Promise.all([
      requestStagePayment(t.db, env(), "b1", deposit.id, now),
      requestStagePayment(t.db, env(), "b1", deposit.id, now),
    ]);
    expect([a.requested, b.requested].sort()).toEqual([false, true]);
    expect(a.payPath).toBe(b.payPath);
    expect(a.payPath).toMatch(/^\/pay\/[A-Za-z0-9_-]{32}$/);
    const creates = stripe.requests.slice(before).filter((r) => r.method === "POST");
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(stripe.sessions.size).toBeGreaterThan(0);
    const form = creates[0].form as Record<string, Record<string, unknown>>;
    expect(form).toMatchObject({
      mode: "payment",
      customer_email: "ada@client.example",
      metadata: { booking_id: "b1", stage_id: deposit.id },
      payment_intent_data: { metadata: { booking_id: "b1", stage_id: deposit.id } },
      line_items: { 0: { quantity: "1", price_data: { currency: "usd", unit_amount: "170000" } } },
    });
    // Due 3 business days later in the studio's zone: Friday the 27th -> Wednesday December 2.
    expect(a.dueOn).toBe(addBusinessDays(todayIn("America/New_York", now), 3));
    expect(a.dueOn).toBe("2026-12-02");
    const mails = await outbox(t);
    const requests = mails.filter((m) => m.stage_id === null);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ to_email: "ada@client.example" });
    expect(requests[0].subject).toContain("Deposit, $1,700");
    expect(requests[0].text_body).toContain(`http://localhost:3000${a.payPath}`);
    expect(requests[0].text_body).toContain("Wednesday, December 2, 2026");
    const reminders = mails.filter((m) => m.stage_id === deposit.id);
    // 09:00 in New York on the due date and two days after (EST: 14:00 UTC).
    expect(reminders.map((m) => [m.status, m.next_attempt_at])).toEqual([
      ["pending", "2026-12-02T14:00:00.000Z"],
      ["pending", "2026-12-04T14:00:00.000Z"],
    ]);
    const view = (await paymentPlan(t.db, "b1", "America/New_York", now))!;
    expect(view.stages[0]).toMatchObject({ state: "requested", editable: false, dueOn: "2026-12-02" });
    await expect(updateStage(t.db, "b1", deposit.id, { amount: "1" })).rejects.toThrow(PLAN_MESSAGES.requestedLocked);
    await t.close();
  });

  it("the outbox loop sends the reminder on the due date, and a payment drops the one after", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const now = new Date("2026-11-27T15:00:00Z");
    await requestStagePayment(t.db, env(), "b1", plan.stages[0].id, now);
    // The request itself went out at once; nothing else is due before the due date's morning.
    await retryPendingMail(t.db, env(), new Date("2026-12-02T13:59:00Z"));
    expect((await outbox(t)).filter((m) => m.stage_id).map((m) => m.status)).toEqual(["pending", "pending"]);
    await retryPendingMail(t.db, env(), new Date("2026-12-02T14:01:00Z"));
    const [due, later] = (await outbox(t)).filter((m) => m.stage_id);
    expect(due.status).toBe("logged");
    expect(due.subject).toBe("Reminder: Deposit payment of $1,700 is due today");
    expect(later.status).toBe("pending");
    await recordPayment(t.db, "b1", { amount: "1700", method: "bank" });
    const after = (await outbox(t)).filter((m) => m.stage_id);
    expect(after.map((m) => m.status)).toEqual(["logged", "cancelled"]);
    await t.close();
  });

  it("is refused for a cancelled booking and explains itself without Stripe", async () => {
    const t = await freshDb();
    const cancelled = await booking(t, "b2", GROWTH_TOTAL, "cancelled");
    await expect(requestStagePayment(t.db, env(), "b2", cancelled.stages[0].id)).rejects.toThrow(
      PLAN_MESSAGES.cancelled,
    );
    const plan = await booking(t);
    const noStripe = { ...env(), STRIPE_SECRET_KEY: undefined };
    await expect(requestStagePayment(t.db, noStripe, "b1", plan.stages[0].id)).rejects.toMatchObject({
      kind: "unavailable",
      message: CARD_PAYMENTS_NEED_STRIPE,
    });
    expect((await paymentPlan(t.db, "b1", "UTC"))!.stages[0].state).toBe("planned");
    await t.close();
  });

  it("cancelling the booking drops the stage's reminders", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    await requestStagePayment(t.db, env(), "b1", plan.stages[0].id);
    await setBookingStatus(t.db, "b1", "cancelled");
    const reminders = (await outbox(t)).filter((m) => m.stage_id);
    expect(reminders.map((m) => m.status)).toEqual(["cancelled", "cancelled"]);
    await expect(sendStageReminder(t.db, env(), "b1", plan.stages[0].id)).rejects.toThrow(PLAN_MESSAGES.cancelled);
    await t.close();
  });
});

describe("the client's page and Stripe's webhook", () => {
  it("pays the stage once however many times Stripe delivers, with a receipt and a notice", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const deposit = plan.stages[0];
    const { payPath } = await requestStagePayment(t.db, env(), "b1", deposit.id);
    const token = payPath.split("/").pop()!;
    expect(await payPage(t.db, env(), token)).toMatchObject({
      stageLabel: "Deposit",
      amount: 170_000,
      company: "Lovelace Labs",
      paidAt: null,
    });
    const url = await checkoutForToken(t.db, env(), token);
    const sessionId = url!.split("/pay/")[1];
    const session = stripe.complete(sessionId);
    // Out of order and twice: the async success first, then completed twice (distinct event ids).
    for (const [i, type] of [
      "checkout.session.async_payment_succeeded",
      "checkout.session.completed",
      "checkout.session.completed",
    ].entries()) {
      const res = await handleStripeWebhook(t.db, signed({ id: `evt_${sessionId}_${i}`, type, object: session }));
      expect(res.status).toBe(200);
    }
    const ledger = await t.db.selectFrom("payments").selectAll().execute();
    expect(ledger).toEqual([
      expect.objectContaining({
        amount: 170_000,
        method: "card",
        stage_id: deposit.id,
        stripe_checkout_session: sessionId,
        stripe_payment_intent: `pi_${sessionId}`,
      }),
    ]);
    const after = (await paymentPlan(t.db, "b1", "UTC"))!;
    expect(after.stages[0].state).toBe("paid");
    expect(after.paid).toBe(170_000);
    const mails = await outbox(t);
    expect(mails.filter((m) => m.subject.startsWith("Receipt: Deposit payment of $1,700"))).toHaveLength(1);
    expect(mails.filter((m) => m.subject.startsWith("Paid: Lovelace Labs, Deposit"))).toHaveLength(1);
    expect(mails.filter((m) => m.stage_id).map((m) => m.status)).toEqual(["cancelled", "cancelled"]);
    expect((await payPage(t.db, env(), token))!.paidAt).not.toBeNull();
    await expect(checkoutForToken(t.db, env(), token)).rejects.toThrow(PLAN_MESSAGES.alreadyPaid);
    await t.close();
  });

  it("hands out the open session again and makes a fresh one once it has expired", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const { payPath } = await requestStagePayment(t.db, env(), "b1", plan.stages[1].id);
    const token = payPath.split("/").pop()!;
    const first = await checkoutForToken(t.db, env(), token);
    expect(await checkoutForToken(t.db, env(), token)).toBe(first);
    stripe.expire(first!.split("/pay/")[1]);
    const second = await checkoutForToken(t.db, env(), token);
    expect(second).not.toBe(first);
    expect(stripe.sessions.get(second!.split("/pay/")[1])).toMatchObject({ status: "open", amount_total: 425_000 });
    await t.close();
  });

  it("records only sessions this studio made: a stage's amount and currency must match, the stage requested (issue 40.5)", async () => {
    const t = await freshDb();
    const plan = await booking(t);
    const [deposit, second] = plan.stages;
    await requestStagePayment(t.db, env(), "b1", deposit.id);
    const stranger = (id: string, stage: typeof deposit, amount: number, currency = "usd") => ({
      id,
      object: "checkout.session",
      payment_status: "paid",
      amount_total: amount,
      currency,
      metadata: { booking_id: "b1", stage_id: stage.id },
      payment_intent: `pi_${id}`,
    });
    for (const session of [
      stranger("cs_one_cent", deposit, 1),
      stranger("cs_euros", deposit, deposit.amount, "eur"),
      // The stage was never requested: no session of ours can exist for it.
      stranger("cs_unrequested", second, second.amount),
    ]) {
      const res = await handleStripeWebhook(
        t.db,
        signed({ id: `evt_${session.id}`, type: "checkout.session.completed", object: session }),
      );
      expect(res.status).toBe(200);
    }
    expect(await t.db.selectFrom("payments").selectAll().execute()).toEqual([]);
    expect((await paymentPlan(t.db, "b1", "UTC"))!.paid).toBe(0);
    await t.close();
  });

  it("records only template sessions this studio made: signed for the template, buyer and price, and paid that amount (issue 40.5)", async () => {
    const { t, user, tpl } = await buyerAndAtelier();
    const session = (id: string, metadata: Record<string, string>, amount: number) => ({
      id,
      object: "checkout.session",
      payment_status: "paid",
      amount_total: amount,
      currency: "usd",
      client_reference_id: user.id,
      metadata,
      payment_intent: `pi_${id}`,
    });
    const ours = checkoutMetadata(env().SESSION_SECRET, { templateId: tpl.id, userId: user.id, price: tpl.price });
    for (const s of [
      // Someone else's payment link naming our template and buyer, for a dollar.
      session("cs_link", { templateId: tpl.id, userId: user.id }, 100),
      // Our metadata with the price changed and the old signature kept.
      session("cs_cheaper", { ...ours, price: "100" }, 100),
      // A signature that is not ours.
      session("cs_forged", { ...ours, sig: "x".repeat(32) }, tpl.price),
      // Ours, but paid a cent less.
      session("cs_short", ours, tpl.price - 1),
    ]) {
      await handleStripeWebhook(t.db, signed({ id: `evt_${s.id}`, type: "checkout.session.completed", object: s }));
      expect(await purchaseFor(t.db, user.id, tpl.id), s.id).toBeNull();
    }
    await handleStripeWebhook(
      t.db,
      signed({ id: "evt_cs_ours", type: "checkout.session.completed", object: session("cs_ours", ours, tpl.price) }),
    );
    expect(await purchaseFor(t.db, user.id, tpl.id)).not.toBeNull();
    await t.close();
  });

  it("records nothing for a session naming no booking of ours, and answers 404 data for an unknown token", async () => {
    const t = await freshDb();
    await booking(t);
    for (const metadata of [{}, { booking_id: "b1", stage_id: "not-a-stage" }]) {
      const session = {
        id: `cs_stranger_${Object.keys(metadata).length}`,
        object: "checkout.session",
        payment_status: "paid",
        amount_total: 5_000,
        metadata,
        payment_intent: "pi_stranger",
      };
      const res = await handleStripeWebhook(
        t.db,
        signed({ id: `evt_${session.id}`, type: "checkout.session.completed", object: session }),
      );
      expect(res.status).toBe(200);
    }
    expect(await t.db.selectFrom("payments").selectAll().execute()).toEqual([]);
    expect(await payPage(t.db, env(), "no-such-token-at-all-1234")).toBeNull();
    expect(await checkoutForToken(t.db, env(), "no-such-token-at-all-1234")).toBeNull();
    await t.close();
  });
});

describe("refunds and money by month", () => {
  /** The deposit paid by card through the webhook; answers its ledger payment id and payment intent. */
  async function paidDeposit(t: TestDb) {
    const plan = await booking(t);
    const { payPath } = await requestStagePayment(t.db, env(), "b1", plan.stages[0].id);
    const url = await checkoutForToken(t.db, env(), payPath.split("/").pop()!);
    const session = stripe.complete(url!.split("/pay/")[1]);
    await handleStripeWebhook(
      t.db,
      signed({ id: `evt_${session.id}`, type: "checkout.session.completed", object: session }),
    );
    const pay = await t.db
      .selectFrom("payments")
      .select(["id", "stripe_payment_intent"])
      .where("booking_id", "=", "b1")
      .executeTakeFirstOrThrow();
    return { paymentId: pay.id, intent: pay.stripe_payment_intent!, stageId: plan.stages[0].id };
  }

  it("refunds part of a booking payment through Stripe once, however often it is clicked", async () => {
    const t = await freshDb();
    const { paymentId, intent } = await paidDeposit(t);
    await expect(refundPayment(t.db, env(), paymentId, "1700.01")).rejects.toThrow(
      "That is more than is left of this payment ($1,700).",
    );
    await expect(refundPayment(t.db, env(), paymentId, "0")).rejects.toThrow(AMOUNT_MESSAGES.positive);
    const before = stripe.requests.filter((r) => r.path === "/v1/refunds").length;
    const [a, b] = await Promise.all([
      refundPayment(t.db, env(), paymentId, "500"),
      refundPayment(t.db, env(), paymentId, "500"),
    ]);
    expect(a.stripeRefund).toBe(b.stripeRefund);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
    const posted = stripe.requests.filter((r) => r.path === "/v1/refunds").slice(before);
    expect(posted).toHaveLength(2);
    expect(new Set(posted.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(posted[0].form).toMatchObject({ payment_intent: intent, amount: "50000" });
    const refunds = await t.db.selectFrom("payments").selectAll().where("kind", "=", "refund").execute();
    expect(refunds).toEqual([expect.objectContaining({ amount: 50_000, refund_of: paymentId, booking_id: "b1" })]);
    const plan = (await paymentPlan(t.db, "b1", "UTC"))!;
    expect(plan.paid).toBe(120_000);
    expect(plan.stages[0].payments[0]).toMatchObject({ amount: 170_000, refunded: 50_000 });
    // A refund made in the Stripe Dashboard arrives by charge.refunded (twice) and is written once.
    const res = await fetch(`${base}/v1/refunds`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ payment_intent: intent, amount: "20000" }),
    });
    expect(res.status).toBe(200);
    for (const i of [1, 2]) {
      const r = await handleStripeWebhook(
        t.db,
        signed({ id: `evt_refund_${intent}_${i}`, type: "charge.refunded", object: stripe.chargeOf(intent) }),
      );
      expect(r.status).toBe(200);
    }
    const all = await t.db.selectFrom("payments").select(["amount", "note"]).where("kind", "=", "refund").execute();
    expect(all.map((r) => r.amount).sort()).toEqual([20_000, 50_000]);
    expect((await paymentPlan(t.db, "b1", "UTC"))!.paid).toBe(100_000);
    await t.close();
  });

  it("a refund Stripe refuses is a 4xx with Stripe's reason, and nothing is written (issue 40.5)", async () => {
    const t = await freshDb();
    const { paymentId, intent } = await paidDeposit(t);
    // Refunded in full in the Stripe Dashboard; the ledger has not heard of it yet.
    const dashboard = await fetch(`${base}/v1/refunds`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ payment_intent: intent }),
    });
    expect(dashboard.status).toBe(200);
    const refused = await refundPayment(t.db, env(), paymentId, "500").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(httpStatusOf(refused as DomainError)).toBe(422);
    expect(trpcCodeOf(refused as DomainError)).toBe("UNPROCESSABLE_CONTENT");
    expect((refused as Error).message).toMatch(
      /^Stripe refused the refund, so nothing was refunded\. Stripe said: .*already been refunded/,
    );
    expect(await t.db.selectFrom("payments").selectAll().where("kind", "=", "refund").execute()).toEqual([]);
    await t.close();
  });

  it("a template purchase refunded in full from the console loses its download", async () => {
    const { t, user, tpl } = await buyerAndAtelier();
    const session = await paidCheckoutSession(tpl.price);
    const r = await fulfilCheckout(t.db, {
      stripeSessionId: session.id,
      paymentIntent: session.payment_intent,
      userId: user.id,
      templateId: tpl.id,
      amountPaid: tpl.price,
    });
    expect(r.outcome).toBe("created");
    const sale = await t.db.selectFrom("payments").selectAll().where("kind", "=", "payment").executeTakeFirstOrThrow();
    expect(sale).toMatchObject({ amount: tpl.price, method: "card", party: "buyer@example.com" });
    await refundPayment(t.db, env(), sale.id, undefined);
    expect(await purchaseFor(t.db, user.id, tpl.id)).toBeNull();
    const purchase = await t.db.selectFrom("purchases").select("status").executeTakeFirstOrThrow();
    expect(purchase.status).toBe("refunded");
    await expect(refundPayment(t.db, env(), sale.id, "1")).rejects.toThrow(REFUND_MESSAGES.nothingLeft);
    await t.close();
  });

  it("shows the same money everywhere after a partial template refund (issue 41.1)", async () => {
    const { t, user, tpl } = await buyerAndAtelier();
    const session = await paidCheckoutSession(tpl.price);
    await fulfilCheckout(t.db, {
      stripeSessionId: session.id,
      paymentIntent: session.payment_intent,
      userId: user.id,
      templateId: tpl.id,
      amountPaid: tpl.price,
    });
    const sale = await t.db.selectFrom("payments").select("id").where("kind", "=", "payment").executeTakeFirstOrThrow();
    // $10 of the template back: the buyer keeps the download, the studio keeps the rest.
    await refundPayment(t.db, env(), sale.id, "10");
    expect(await purchaseFor(t.db, user.id, tpl.id)).not.toBeNull();
    await booking(t);
    await recordPayment(t.db, "b1", { amount: "1000", method: "bank" });

    const products = tpl.price - 1_000;
    const bookings = 100_000;
    const cards = await adminStats(t.db);
    expect(cards).toMatchObject({
      productRevenue: products,
      bookingsPaid: bookings,
      totalRevenue: products + bookings,
    });
    const month = await moneyView(t.db, "America/New_York");
    expect(month.received).toBe(cards.totalRevenue);
    expect(month.templateSales - month.refunds).toBe(cards.productRevenue);
    expect(month.bookingPayments).toBe(cards.bookingsPaid);
    expect(month.months.at(-1)).toMatchObject({ month: month.month, received: cards.totalRevenue });
    const csv = await new Response(ledgerCsv(t.db)).text();
    const rows = csv.trim().split("\r\n").slice(1);
    const amounts = rows.map((line) => line.split(",")[6]);
    expect(amounts.sort()).toEqual(["-10.00", "1000.00", (tpl.price / 100).toFixed(2)].sort());
    expect(Math.round(amounts.reduce((sum, a) => sum + Number(a), 0) * 100)).toBe(cards.totalRevenue);
    await t.close();
  });

  it("refuses a payment that was not made by card", async () => {
    const t = await freshDb();
    await booking(t);
    const r = await recordPayment(t.db, "b1", { amount: "100", method: "cash" });
    await expect(refundPayment(t.db, env(), r.paymentId, undefined)).rejects.toThrow(REFUND_MESSAGES.notCard);
    await t.close();
  });

  it("shows a month's money with its parts, twelve months, and open quotes only as pipeline", async () => {
    const t = await freshDb();
    const { paymentId } = await paidDeposit(t);
    await refundPayment(t.db, env(), paymentId, "200");
    await booking(t, "b2", 250_000);
    // A payment just before midnight in New York on October 31 belongs to October there.
    await t.db
      .insertInto("payments")
      .values({
        id: "late-october",
        kind: "payment",
        amount: 5_900,
        method: "card",
        purchase_id: null,
        booking_id: null,
        occurred_at: "2026-11-01T03:30:00.000Z",
      })
      .execute();
    const now = new Date();
    const thisMonth = todayIn("America/New_York", now).slice(0, 7);
    const view = await moneyView(t.db, "America/New_York", undefined, now);
    expect(view).toMatchObject({
      month: thisMonth,
      received: 170_000 - 20_000,
      bookingPayments: 170_000,
      refunds: 20_000,
      templateSales: 0,
      // Open quotes: 8,500 - 1,700 + 200 refunded, and 2,500: never in the money received.
      pipeline: 850_000 - 150_000 + 250_000,
      pipelineBookings: 2,
      next: null,
    });
    expect(view.months).toHaveLength(12);
    expect(view.months.at(-1)).toMatchObject({ month: thisMonth, received: 150_000 });
    const october = await moneyView(t.db, "America/New_York", "2026-10", now);
    expect(october).toMatchObject({ month: "2026-10", label: "October 2026", received: 5_900, bookingPayments: 5_900 });
    // A month in the future is this month.
    expect((await moneyView(t.db, "America/New_York", "2999-01", now)).month).toBe(thisMonth);
    await t.close();
  });
});
