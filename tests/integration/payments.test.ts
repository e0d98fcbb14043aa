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
import { setBookingStatus } from "../../server/admin/admin.server";
import {
  addStage,
  CARD_PAYMENTS_NEED_STRIPE,
  checkoutForToken,
  createPlan,
  payPage,
  paymentPlan,
  recordPayment,
  removeStage,
  requestStagePayment,
  sendStageReminder,
  updateStage,
} from "../../server/booking/payments.server";
import { env } from "../../server/env.server";
import { handleStripeWebhook } from "../../server/http/stripe-webhook.server";
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
