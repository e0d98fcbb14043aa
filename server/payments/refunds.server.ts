import crypto from "node:crypto";
import type Stripe from "stripe";
import { sql, type Transaction } from "kysely";
import { formatMoney } from "#domain/money";
import { parseAmount } from "#domain/payment-plan";
import type { DB } from "../db/db.server";
import { nowIso } from "../db/json";
import type { Database, RevocationReason } from "../db/schema";
import { DomainError } from "../errors";
import type { Env } from "../env.server";
import { moveBookingPaid } from "./ledger.server";
import { announceCatalogueChange } from "../db/catalogue-version.server";
import { STRIPE_NOT_CONFIGURED, stripeClient, stripeRefusal } from "./stripe.server";
import { log } from "../log.server";

/**
 * Refunds (issue 31.5): from the console, full or partial, of a card payment in the ledger (a
 * template purchase or a booking payment), through Stripe's Refunds API with an idempotency key;
 * and those made in the Stripe Dashboard, learnt from `charge.refunded`. Each Stripe refund is
 * written to the ledger once. A template purchase refunded in full loses access (decision 009).
 */

export const REFUND_MESSAGES = {
  notCard: "Only card payments are refunded from here. Refund a transfer or cash the way it was paid.",
  nothingLeft: "This payment has already been refunded in full.",
  stripeFailed: "Stripe could not make the refund. Nothing was refunded; please try again.",
  stripeRefused: "Stripe refused the refund, so nothing was refunded.",
} as const;

type Writer = DB | Transaction<Database>;

/** A ledger payment and what of it was refunded already. */
async function paymentWithRefunds(db: Writer, paymentId: string) {
  const payment = await db
    .selectFrom("payments")
    .selectAll()
    .where("id", "=", paymentId)
    .where("kind", "=", "payment")
    .executeTakeFirst();
  if (!payment) throw new DomainError("not-found", "Payment not found");
  const refunded = await db
    .selectFrom("payments")
    .select((eb) => eb.fn.sum<number>("amount").as("sum"))
    .where("refund_of", "=", paymentId)
    .where("kind", "=", "refund")
    .executeTakeFirstOrThrow();
  return { payment, refunded: Number(refunded.sum ?? 0) };
}

/** What is left to refund of a ledger payment (cents). */
export async function refundable(db: DB, paymentId: string): Promise<number> {
  const { payment, refunded } = await paymentWithRefunds(db, paymentId);
  return Math.max(0, payment.amount - refunded);
}

type StripeRefund = { id: string; amount: number; payment_intent: string | { id: string } | null; created?: number };

/**
 * Writes one Stripe refund into the ledger (once: its id is unique) against the payment it
 * refunds, and applies it: a booking's amount paid and history go down by it; a template
 * purchase refunded in full loses access. Answers whether it was new.
 */
async function recordRefund(db: DB, paymentId: string, refund: StripeRefund, note: string | null): Promise<boolean> {
  const fullyRefunded = await db.transaction().execute(async (trx) => {
    const { payment, refunded } = await paymentWithRefunds(trx, paymentId);
    const inserted = await trx
      .insertInto("payments")
      .values({
        id: crypto.randomUUID(),
        kind: "refund",
        amount: refund.amount,
        method: payment.method,
        booking_id: payment.booking_id,
        stage_id: payment.stage_id,
        purchase_id: payment.purchase_id,
        refund_of: payment.id,
        party: payment.party,
        subject: payment.subject,
        stripe_payment_intent: payment.stripe_payment_intent,
        stripe_refund: refund.id,
        note,
        occurred_at: refund.created ? new Date(refund.created * 1000).toISOString() : nowIso(),
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
    if (payment.booking_id)
      await moveBookingPaid(trx, payment.booking_id, {
        amount: -refund.amount,
        date: nowIso(),
        note: note ?? `Refund ${refund.id}`,
      });
    return refunded + refund.amount >= payment.amount ? payment : false;
  });
  if (fullyRefunded === null) return false;
  if (fullyRefunded && fullyRefunded.purchase_id && fullyRefunded.stripe_payment_intent) {
    await revokeCheckout(db, {
      reason: "refunded",
      stripeEventId: refund.id,
      paymentIntent: fullyRefunded.stripe_payment_intent,
      sessionIds: fullyRefunded.stripe_checkout_session ? [fullyRefunded.stripe_checkout_session] : [],
    });
  }
  return true;
}

/**
 * "Refund" in the console: refunds `amountInput` (dollars as typed; empty: all that remains) of a
 * card payment through Stripe. Refused when the amount is not above $0, finer than a cent, or more
 * than remains of the payment; a double click makes one refund (the same idempotency key).
 */
export async function refundPayment(
  db: DB,
  e: Env,
  paymentId: string,
  amountInput: string | undefined,
): Promise<{ refunded: number; left: number; stripeRefund: string }> {
  const { payment, refunded } = await paymentWithRefunds(db, paymentId);
  if (payment.method !== "card" || !payment.stripe_payment_intent)
    throw new DomainError("invalid", REFUND_MESSAGES.notCard);
  const left = payment.amount - refunded;
  if (left <= 0) throw new DomainError("conflict", REFUND_MESSAGES.nothingLeft);
  let amount = left;
  if (amountInput !== undefined && amountInput.trim() !== "") {
    const parsed = parseAmount(amountInput, { left, leftLabel: "is left of this payment" });
    if ("error" in parsed) throw new DomainError("invalid", parsed.error);
    amount = parsed.cents;
  }
  const stripe = await stripeClient(e);
  if (!stripe) throw new DomainError("unavailable", STRIPE_NOT_CONFIGURED);
  let refund: Stripe.Refund;
  try {
    refund = await stripe.refunds.create(
      { payment_intent: payment.stripe_payment_intent, amount, metadata: { payment_id: payment.id } },
      { idempotencyKey: `studio-refund-${payment.id}-${refunded}-${amount}` },
    );
  } catch (error) {
    const refusal = stripeRefusal(error);
    const message = refusal ?? (error as { message?: string }).message ?? String(error);
    const line = `[refunds] Stripe ${refusal ? "refused" : "could not make"} a refund of ${formatMoney(amount)} on ${payment.stripe_payment_intent}: ${message}`;
    // Refused by Stripe (its reason is the owner's to read): a 4xx. Stripe unreachable: a failure.
    if (refusal) {
      log.warn(line);
      throw new DomainError("refused", `${REFUND_MESSAGES.stripeRefused} Stripe said: ${refusal}`);
    }
    log.error({ err: error }, line);
    throw new DomainError("failed", `${REFUND_MESSAGES.stripeFailed} (Stripe said: ${message})`);
  }
  await recordRefund(db, payment.id, refund, "Refunded from the console");
  return { refunded: refund.amount, left: left - refund.amount, stripeRefund: refund.id };
}

/**
 * `charge.refunded` (a refund made in the Stripe Dashboard, or ours echoed back): every refund of
 * the payment intent that the ledger does not hold yet is written to it. Answers how many were new.
 */
export async function syncStripeRefunds(db: DB, stripe: Stripe, paymentIntent: string): Promise<number> {
  const payment = await db
    .selectFrom("payments")
    .select("id")
    .where("stripe_payment_intent", "=", paymentIntent)
    .where("kind", "=", "payment")
    .executeTakeFirst();
  if (!payment) return 0;
  const refunds = await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 });
  let added = 0;
  for (const r of [...refunds.data].sort((a, b) => a.created - b.created)) {
    if (r.status === "failed" || r.status === "canceled") continue;
    if (await recordRefund(db, payment.id, r, "Refunded in Stripe")) added++;
  }
  return added;
}

/** How a refund or dispute reached us, and what it revokes. */
export type Revocation = {
  reason: RevocationReason;
  stripeEventId: string;
  paymentIntent: string | null;
  sessionIds: readonly string[];
};

/**
 * A full refund or a dispute: remembers the payment intent and checkout sessions as revoked
 * (so nothing that arrives later grants access through them) and revokes the purchases they
 * paid for, taking their sales off the catalogue count. Idempotent. Returns how many purchases
 * lost access now.
 */
export async function revokeCheckout(db: DB, r: Revocation): Promise<number> {
  const keys = [
    ...r.sessionIds.map((stripe_id) => ({ stripe_id, kind: "checkout_session" as const })),
    ...(r.paymentIntent ? [{ stripe_id: r.paymentIntent, kind: "payment_intent" as const }] : []),
  ];
  if (!keys.length) return 0;
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("stripe_revocations")
      .values(keys.map((k) => ({ ...k, reason: r.reason, stripe_event_id: r.stripeEventId })))
      .onConflict((oc) => oc.column("stripe_id").doNothing())
      .execute();
    const hit = await trx
      .selectFrom("purchases")
      .select(["id", "template_id"])
      .where("status", "=", "active")
      .where((eb) =>
        eb.or([
          ...(r.sessionIds.length ? [eb("stripe_session_id", "in", r.sessionIds)] : []),
          ...(r.paymentIntent ? [eb("stripe_payment_intent", "=", r.paymentIntent)] : []),
        ]),
      )
      .execute();
    if (!hit.length) return 0;
    await trx
      .updateTable("purchases")
      .set({ status: "refunded" })
      .where(
        "id",
        "in",
        hit.map((h) => h.id),
      )
      .execute();
    await takeSalesBack(
      trx,
      hit.map((h) => h.template_id),
    );
    return hit.length;
  });
}

/** One sale off each template's count (a purchase that no longer grants access), announced. */
export async function takeSalesBack(trx: Transaction<Database>, templateIds: string[]): Promise<void> {
  for (const id of templateIds) {
    await trx
      .updateTable("templates")
      .set({ sales_count: sql<number>`max(sales_count - 1, 0)` })
      .where("id", "=", id)
      .execute();
  }
  await announceCatalogueChange(trx);
}
