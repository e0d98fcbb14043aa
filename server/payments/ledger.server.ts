import crypto from "node:crypto";
import type { Transaction } from "kysely";
import type { DB } from "../db/db.server";
import { listFromJson, nowIso, toJson } from "../db/json";
import { paymentEntrySchema } from "../db/json-columns";
import type { Database, PaymentMethod } from "../db/schema";
import { DomainError } from "../errors";
import { amountOrRefuse, stageFor, type Writer } from "./plan.server";
import { settleInvoice } from "./invoices.server";

/**
 * The ledger (issue 31): every payment and refund, written here and only here, exactly once; what
 * SPEC.md keeps on a booking (amount paid, history, payment status) follows it. Every money figure
 * the console shows is read from it (money.server.ts).
 */

type LedgerPayment = {
  amount: number;
  method: PaymentMethod;
  note?: string | null;
  occurredAt: string;
  stripe?: { paymentIntent: string | null; checkoutSession: string };
};

/**
 * Writes a booking payment into the ledger and applies it: the stage it names (or the first
 * unpaid one) is paid once its payments reach its amount, the booking's amount paid, history and
 * payment status follow, and the stage's pending reminders are dropped. A Stripe checkout session
 * is recorded once: a second delivery answers `recorded: false` and changes nothing.
 */
export async function applyPayment(
  trx: Transaction<Database>,
  bookingId: string,
  stageId: string | null,
  p: LedgerPayment,
): Promise<{ recorded: boolean; paymentId: string; stageId: string | null; stagePaid: boolean }> {
  const booking = await trx
    .selectFrom("bookings")
    .select(["id", "full_name", "email", "company_name"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!booking) throw new DomainError("not-found", "Booking not found");
  const stage = stageId
    ? await stageFor(trx, bookingId, stageId)
    : await trx
        .selectFrom("booking_stages")
        .selectAll()
        .where("booking_id", "=", bookingId)
        .where("paid_at", "is", null)
        .orderBy("position")
        .executeTakeFirst();
  const paymentId = crypto.randomUUID();
  const inserted = await trx
    .insertInto("payments")
    .values({
      id: paymentId,
      kind: "payment",
      amount: p.amount,
      method: p.method,
      booking_id: bookingId,
      stage_id: stage?.id ?? null,
      party: `${booking.full_name} <${booking.email}>`,
      subject: stage ? `${booking.company_name} · ${stage.label}` : booking.company_name,
      stripe_payment_intent: p.stripe?.paymentIntent ?? null,
      stripe_checkout_session: p.stripe?.checkoutSession ?? null,
      note: p.note || null,
      occurred_at: p.occurredAt,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
    return { recorded: false, paymentId, stageId: stage?.id ?? null, stagePaid: false };

  let stagePaid = false;
  if (stage && !stage.paid_at) {
    const paidOnStage = await trx
      .selectFrom("payments")
      .select((eb) => eb.fn.sum<number>("amount").as("sum"))
      .where("stage_id", "=", stage.id)
      .where("kind", "=", "payment")
      .executeTakeFirstOrThrow();
    if (Number(paidOnStage.sum ?? 0) >= stage.amount) {
      stagePaid = true;
      await trx
        .updateTable("booking_stages")
        .set({ paid_at: p.occurredAt, updated_at: nowIso() })
        .where("id", "=", stage.id)
        .execute();
      await dropStageReminders(trx, stage.id, "the stage was paid");
      await settleInvoice(trx, stage.id, p.occurredAt);
    }
  }
  await moveBookingPaid(trx, bookingId, { amount: p.amount, date: p.occurredAt, note: p.note });
  return { recorded: true, paymentId, stageId: stage?.id ?? null, stagePaid };
}

/**
 * What SPEC.md keeps on the booking follows the ledger: `amount_paid` moves by `amount` (a refund
 * is negative; never below 0), the entry is appended to `payment_history`, and `payment_status`
 * is worked out again. The one place both payments and refunds change a booking's money.
 */
export async function moveBookingPaid(
  trx: Writer,
  bookingId: string,
  entry: { amount: number; date: string; note?: string | null },
): Promise<void> {
  const b = await trx
    .selectFrom("bookings")
    .select(["amount_paid", "total_amount", "payment_history"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!b) return;
  const history = listFromJson(b.payment_history, paymentEntrySchema);
  history.push({ amount: entry.amount, date: entry.date, ...(entry.note ? { note: entry.note } : {}) });
  const paid = Math.max(0, b.amount_paid + entry.amount);
  await trx
    .updateTable("bookings")
    .set({
      amount_paid: paid,
      payment_history: toJson(history),
      payment_status: paid <= 0 ? "unpaid" : paid >= b.total_amount ? "paid" : "partial",
      updated_at: nowIso(),
    })
    .where("id", "=", bookingId)
    .execute();
}

/** Drops the pending payment reminders of a stage (it was paid, or its booking cancelled). */
async function dropStageReminders(trx: Writer, stageId: string, reason: string): Promise<void> {
  await trx
    .updateTable("email_outbox")
    .set({ status: "cancelled", error: reason, next_attempt_at: null })
    .where("stage_id", "=", stageId)
    .where("status", "=", "pending")
    .execute();
}

/** Drops every pending payment reminder of a booking (it was cancelled). */
export async function dropBookingPaymentReminders(trx: Writer, bookingId: string): Promise<void> {
  await trx
    .updateTable("email_outbox")
    .set({ status: "cancelled", error: "the booking was cancelled", next_attempt_at: null })
    .where("booking_id", "=", bookingId)
    .where("stage_id", "is not", null)
    .where("status", "=", "pending")
    .execute();
}

/**
 * "Record payment": money that came by bank transfer, cash or other means, toward a stage (the
 * first unpaid one unless named). Refused when the amount is not above $0, finer than a cent, or
 * more than is left of the booking's total.
 */
export async function recordPayment(
  db: DB,
  bookingId: string,
  input: { amount: string | number; method?: PaymentMethod; note?: string; stageId?: string | null },
  now = new Date(),
) {
  return db.transaction().execute(async (trx) => {
    const b = await trx
      .selectFrom("bookings")
      .select(["total_amount", "amount_paid"])
      .where("id", "=", bookingId)
      .executeTakeFirst();
    if (!b) throw new DomainError("not-found", "Booking not found");
    const raw = typeof input.amount === "number" ? (input.amount / 100).toFixed(2) : input.amount;
    const amount = amountOrRefuse(raw, { left: b.total_amount - b.amount_paid });
    const r = await applyPayment(trx, bookingId, input.stageId ?? null, {
      amount,
      method: input.method ?? "other",
      note: input.note?.trim() || null,
      occurredAt: now.toISOString(),
    });
    const after = await trx
      .selectFrom("bookings")
      .select(["amount_paid", "payment_status", "payment_history"])
      .where("id", "=", bookingId)
      .executeTakeFirstOrThrow();
    return {
      ...r,
      amountPaid: after.amount_paid,
      paymentStatus: after.payment_status,
      paymentHistory: listFromJson(after.payment_history, paymentEntrySchema),
    };
  });
}

/**
 * A template sale (shop/purchases.server.ts, in the purchase's transaction): money received by
 * card, written once per checkout session; a free checkout writes nothing.
 */
export async function recordSale(
  trx: Writer,
  sale: {
    purchaseId: string;
    userId: string;
    templateId: string;
    amount: number;
    paymentIntent: string | null;
    checkoutSession: string;
  },
): Promise<void> {
  if (!(sale.amount > 0)) return;
  const who = await trx
    .selectFrom("users")
    .innerJoin("templates", (j) => j.on("templates.id", "=", sale.templateId))
    .select(["users.email", "templates.name"])
    .where("users.id", "=", sale.userId)
    .executeTakeFirst();
  await trx
    .insertInto("payments")
    .values({
      id: crypto.randomUUID(),
      kind: "payment",
      amount: sale.amount,
      method: "card",
      purchase_id: sale.purchaseId,
      party: who?.email ?? "",
      subject: who ? `${who.name} template` : "Template",
      stripe_payment_intent: sale.paymentIntent,
      stripe_checkout_session: sale.checkoutSession,
      occurred_at: nowIso(),
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
