import type { DB } from "../db/db.server";
import type { Env } from "../env.server";
import { sendMail } from "../email/mailer.server";
import { log } from "../log.server";
import { paymentNoticeMail, paymentReceiptMail } from "./emails.server";
import { applyPayment } from "./ledger.server";
import { stageFor } from "./plan.server";
import { stageMailFacts } from "./requests.server";

/** A stage paid by card: what the Stripe webhook records (server/http/stripe-webhook.server.ts is its edge). */

type StageSession = {
  id: string;
  payment_status: string;
  amount_total: number | null;
  currency?: string | null;
  metadata: Record<string, string> | null;
  payment_intent: string | { id: string } | null;
};

export type StagePaymentOutcome = "recorded" | "duplicate" | "unpaid" | "unknown";

/**
 * A completed Checkout Session whose metadata names a booking and a stage: the payment is written
 * once (whatever the order or number of deliveries), the stage marked paid, the client emailed a
 * receipt and the studio a notice. An unpaid session (a bank debit still on its way) waits for
 * `checkout.session.async_payment_succeeded`; metadata naming no stage of ours records nothing.
 */
export async function recordStageCheckout(
  db: DB,
  e: Env,
  session: StageSession,
  now = new Date(),
): Promise<StagePaymentOutcome> {
  if (session.payment_status !== "paid") return "unpaid";
  const bookingId = session.metadata?.booking_id;
  const stageId = session.metadata?.stage_id;
  const stage =
    bookingId && stageId
      ? await db
          .selectFrom("booking_stages")
          .selectAll()
          .where("id", "=", stageId)
          .where("booking_id", "=", bookingId)
          .executeTakeFirst()
      : undefined;
  if (!stage) {
    log.warn(
      `[payments] checkout session ${session.id} names booking ${bookingId ?? "(none)"} stage ${stageId ?? "(none)"}, which is not ours: nothing recorded`,
    );
    return "unknown";
  }
  // Ours only when it asks what the stage asks (a requested stage's amount is locked), in dollars,
  // and the stage was requested: a session someone else made with the same metadata pays for nothing.
  if (!stage.requested_at || session.amount_total !== stage.amount || (session.currency ?? "usd") !== "usd") {
    log.warn(
      `[payments] checkout session ${session.id} for stage ${stage.id} paid ${session.amount_total ?? "nothing"} ${session.currency ?? ""}, not the stage's ${stage.amount} usd${stage.requested_at ? "" : " (the stage was never requested)"}: nothing recorded`,
    );
    return "unknown";
  }
  const paymentIntent =
    typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  const r = await db.transaction().execute((trx) =>
    applyPayment(trx, stage.booking_id, stage.id, {
      amount: session.amount_total ?? stage.amount,
      method: "card",
      occurredAt: now.toISOString(),
      stripe: { paymentIntent, checkoutSession: session.id },
    }),
  );
  if (!r.recorded) return "duplicate";
  const paid = await stageFor(db, stage.booking_id, stage.id);
  const facts = await stageMailFacts(db, e, paid, now);
  const amount = session.amount_total ?? stage.amount;
  await sendMail(db, e, paymentReceiptMail({ ...facts, amount, paidAt: now.toISOString() }));
  await sendMail(db, e, paymentNoticeMail({ ...facts, amount, paidAt: now.toISOString(), paymentIntent }));
  return "recorded";
}
