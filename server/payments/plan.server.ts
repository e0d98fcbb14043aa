import crypto from "node:crypto";
import type { Transaction } from "kysely";
import {
  AMOUNT_MESSAGES,
  MAX_STAGES,
  parseAmount,
  parseStageLabel,
  planBalance,
  PLAN_MESSAGES,
  splitTotal,
  stageState,
  todayIn,
  type StageSplit,
  type StageState,
} from "#domain/payment-plan";
import { formatMoney, MAX_AMOUNT_CENTS } from "#domain/money";
import { samplePaymentTerms } from "#domain/sample/payments";
import type { DB } from "../db/db.server";
import { nowIso } from "../db/json";
import type { Database, PaymentMethod } from "../db/schema";
import { DomainError } from "../errors";

/**
 * A booking's payment plan (issue 31): its stages, made from the studio's split when the booking is
 * confirmed, shown with what was paid on each, and edited by the owner while a stage is neither
 * requested nor paid. Amounts are cents. Asking for a stage is requests.server.ts; what was paid,
 * the ledger, is ledger.server.ts.
 */

export type Writer = DB | Transaction<Database>;

export type StageView = {
  id: string;
  position: number;
  label: string;
  amount: number;
  state: StageState;
  requestedAt: string | null;
  dueOn: string | null;
  paidAt: string | null;
  /** The `/pay/<token>` path once requested. */
  payPath: string | null;
  /** Card payments on the stage (Stripe ids) and what was recorded by hand. */
  payments: {
    id: string;
    amount: number;
    method: PaymentMethod;
    occurredAt: string;
    paymentIntent: string | null;
    /** What of it was refunded (cents). */
    refunded: number;
  }[];
  editable: boolean;
};

export type PlanView = {
  bookingId: string;
  total: number;
  paid: number;
  left: number;
  cancelled: boolean;
  stages: StageView[];
  planned: number;
  mismatch: string | null;
};

/** Writes a booking's plan from the studio's split (in the booking's own transaction). */
export async function createPlan(
  trx: Writer,
  bookingId: string,
  total: number,
  split: readonly StageSplit[] = samplePaymentTerms.stages,
): Promise<void> {
  const stages = splitTotal(total, split);
  for (const [position, s] of stages.entries()) {
    await trx
      .insertInto("booking_stages")
      .values({ id: crypto.randomUUID(), booking_id: bookingId, position, label: s.label, amount: s.amount })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** A booking's plan as the console shows it; null when the booking does not exist. */
export async function paymentPlan(db: DB, bookingId: string, zone: string, now = new Date()): Promise<PlanView | null> {
  const booking = await db
    .selectFrom("bookings")
    .select(["id", "total_amount", "amount_paid", "status"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!booking) return null;
  const stages = await db
    .selectFrom("booking_stages")
    .selectAll()
    .where("booking_id", "=", bookingId)
    .orderBy("position")
    .execute();
  const payments = await db
    .selectFrom("payments")
    .select(["id", "stage_id", "amount", "method", "occurred_at", "stripe_payment_intent"])
    .where("booking_id", "=", bookingId)
    .where("kind", "=", "payment")
    .orderBy("occurred_at")
    .execute();
  const refunds = await db
    .selectFrom("payments")
    .select(["refund_of", (eb) => eb.fn.sum<number>("amount").as("sum")])
    .where("booking_id", "=", bookingId)
    .where("kind", "=", "refund")
    .groupBy("refund_of")
    .execute();
  const refundedOf = new Map(refunds.map((r) => [r.refund_of, Number(r.sum)]));
  const today = todayIn(zone, now);
  const views = stages.map((s): StageView => ({
    id: s.id,
    position: s.position,
    label: s.label,
    amount: s.amount,
    state: stageState({ paidAt: s.paid_at, requestedAt: s.requested_at, dueOn: s.due_on }, today),
    requestedAt: s.requested_at,
    dueOn: s.due_on,
    paidAt: s.paid_at,
    payPath: s.pay_token ? `/pay/${s.pay_token}` : null,
    payments: payments
      .filter((p) => p.stage_id === s.id)
      .map((p) => ({
        id: p.id,
        amount: p.amount,
        method: p.method,
        occurredAt: p.occurred_at,
        paymentIntent: p.stripe_payment_intent,
        refunded: refundedOf.get(p.id) ?? 0,
      })),
    editable: !s.paid_at && !s.requested_at,
  }));
  const balance = planBalance(
    booking.total_amount,
    views.map((v) => v.amount),
  );
  return {
    bookingId,
    total: booking.total_amount,
    paid: booking.amount_paid,
    left: Math.max(0, booking.total_amount - booking.amount_paid),
    cancelled: booking.status === "cancelled",
    stages: views,
    ...balance,
  };
}

export async function stageFor(trx: Writer, bookingId: string, stageId: string) {
  const stage = await trx
    .selectFrom("booking_stages")
    .selectAll()
    .where("id", "=", stageId)
    .where("booking_id", "=", bookingId)
    .executeTakeFirst();
  if (!stage) throw new DomainError("not-found", "This stage no longer exists.");
  return stage;
}

export function refuseUnlessEditable(stage: { paid_at: string | null; requested_at: string | null }) {
  if (stage.paid_at) throw new DomainError("conflict", PLAN_MESSAGES.paidLocked);
  if (stage.requested_at) throw new DomainError("conflict", PLAN_MESSAGES.requestedLocked);
}

export function amountOrRefuse(input: string, opts: Parameters<typeof parseAmount>[1] = {}): number {
  const r = parseAmount(input, opts);
  if ("error" in r) throw new DomainError("invalid", r.error);
  return r.cents;
}

function labelOrRefuse(input: string): string {
  const r = parseStageLabel(input);
  if ("error" in r) throw new DomainError("invalid", r.error);
  return r.label;
}

export async function bookingTotal(trx: Writer, bookingId: string) {
  const b = await trx
    .selectFrom("bookings")
    .select(["total_amount", "status"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!b) throw new DomainError("not-found", "Booking not found");
  return b;
}

/**
 * Changes a stage that was neither requested nor paid: its name, and its amount given in dollars
 * or as a percent of the booking's total (`amount` wins when both are given).
 */
export async function updateStage(
  db: DB,
  bookingId: string,
  stageId: string,
  input: { label?: string; amount?: string; percent?: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { total_amount } = await bookingTotal(trx, bookingId);
    const stage = await stageFor(trx, bookingId, stageId);
    refuseUnlessEditable(stage);
    const label = input.label === undefined ? stage.label : labelOrRefuse(input.label);
    let amount = stage.amount;
    if (input.amount !== undefined && input.amount.trim() !== "") amount = amountOrRefuse(input.amount);
    else if (input.percent !== undefined && input.percent.trim() !== "")
      amount = percentToAmount(input.percent, total_amount);
    await trx
      .updateTable("booking_stages")
      .set({ label, amount, updated_at: nowIso() })
      .where("id", "=", stageId)
      .execute();
  });
}

function percentToAmount(input: string, total: number): number {
  const typed = input.trim().replace(/%$/, "");
  const n = /^\d{1,3}(?:\.\d{1,4})?$/.test(typed) ? Number(typed) : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 100) throw new DomainError("invalid", "Enter a percent from 0.1 to 100");
  const amount = Math.round((total * n) / 100);
  if (amount <= 0) throw new DomainError("invalid", "Enter an amount above $0");
  if (amount > MAX_AMOUNT_CENTS) throw new DomainError("invalid", AMOUNT_MESSAGES.tooLarge);
  return amount;
}

/** Adds a stage at the end of the plan (by default what the other stages leave of the total). */
export async function addStage(db: DB, bookingId: string, input: { label: string; amount?: string }): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const { total_amount } = await bookingTotal(trx, bookingId);
    const stages = await trx
      .selectFrom("booking_stages")
      .select(["position", "amount"])
      .where("booking_id", "=", bookingId)
      .execute();
    if (stages.length >= MAX_STAGES) throw new DomainError("conflict", PLAN_MESSAGES.tooManyStages);
    const label = labelOrRefuse(input.label);
    const rest = total_amount - stages.reduce((sum, s) => sum + s.amount, 0);
    const amount = input.amount?.trim()
      ? amountOrRefuse(input.amount)
      : rest > 0
        ? amountOrRefuse((rest / 100).toFixed(2))
        : amountOrRefuse("");
    const id = crypto.randomUUID();
    const position = stages.reduce((max, s) => Math.max(max, s.position + 1), 0);
    await trx.insertInto("booking_stages").values({ id, booking_id: bookingId, position, label, amount }).execute();
    return id;
  });
}

/** Removes a stage that was neither requested nor paid. */
export async function removeStage(db: DB, bookingId: string, stageId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    refuseUnlessEditable(await stageFor(trx, bookingId, stageId));
    await trx.deleteFrom("booking_stages").where("id", "=", stageId).execute();
  });
}

/** Money left to ask for on a booking, in words (the console's summary line). */
export function leftInWords(plan: PlanView): string {
  return plan.left > 0 ? `${formatMoney(plan.left)} left to pay` : "Paid in full";
}
