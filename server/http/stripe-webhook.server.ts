import type Stripe from "stripe";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import type { RevocationReason } from "../db/schema";
import { recordStageCheckout } from "../payments/card.server";
import { fulfilSession, stripeId } from "../shop/checkout.server";
import { revokeCheckout } from "../payments/refunds.server";
import { syncStripeRefunds } from "../payments/refunds.server";
import { stripeClient } from "../payments/stripe.server";
import { log } from "../log.server";

function text(status: number, body: string) {
  return new Response(body, { status, headers: { "Content-Type": "text/plain" } });
}

/**
 * POST /webhooks/stripe: the signature is verified on the raw body; each event id is processed
 * once; paid checkouts become purchases exactly once; full refunds and disputes remove access
 * for good (decision 009).
 */
export async function handleStripeWebhook(db: DB, request: Request): Promise<Response> {
  const e = env();
  const stripe = await stripeClient(e);
  const signature = request.headers.get("stripe-signature");
  const raw = await request.text();
  if (!stripe || !e.STRIPE_WEBHOOK_SECRET || !signature)
    return text(400, "Webhook signature missing or Stripe not configured");
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw, signature, e.STRIPE_WEBHOOK_SECRET);
  } catch {
    return text(400, "Invalid signature");
  }
  const seen = await db
    .insertInto("stripe_events")
    .values({ id: event.id, type: event.type })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  if (Number(seen.numInsertedOrUpdatedRows ?? 0) === 0) return text(200, "duplicate");
  try {
    if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
      const s = event.data.object as Stripe.Checkout.Session;
      // A stage of a booking's payment plan (issue 31), a template, or neither (logged, nothing recorded).
      if (s.metadata?.booking_id || s.metadata?.stage_id) await recordStageCheckout(db, e, s);
      else if (s.metadata?.templateId) await fulfilSession(db, e, s);
      else log.warn(`[stripe] checkout session ${s.id} names no booking and no template: nothing recorded`);
    } else if (event.type === "charge.refunded") {
      const charge = event.data.object as Stripe.Charge;
      // Every refund of the payment, made here or in the Stripe Dashboard, enters the ledger once.
      const intent = stripeId(charge.payment_intent);
      if (intent) await syncStripeRefunds(db, stripe, intent);
      // Stripe sends this event for partial refunds too (`refunded: false`): a partial refund is a
      // price adjustment, the buyer keeps the template. Only a full refund revokes.
      if (charge.refunded === false) log.info(`[stripe] partial refund of ${charge.id}: access kept`);
      else await revokePayment(db, stripe, stripeId(charge.payment_intent), "refunded", event.id);
    } else if (event.type === "charge.dispute.created") {
      const dispute = event.data.object as Stripe.Dispute;
      let pi = stripeId(dispute.payment_intent);
      const chargeId = stripeId(dispute.charge);
      if (!pi && chargeId) pi = stripeId((await stripe.charges.retrieve(chargeId)).payment_intent);
      await revokePayment(db, stripe, pi, "disputed", event.id);
    }
  } catch (error) {
    // Let Stripe retry: forget the event so the retry is processed.
    await db.deleteFrom("stripe_events").where("id", "=", event.id).execute();
    log.error({ err: error }, "[stripe] webhook processing failed");
    return text(500, "processing failed");
  }
  return text(200, "ok");
}

/**
 * Revokes what a payment intent paid for. The payment intent is remembered (and its purchases
 * revoked) before Stripe is asked anything, so access ends even when Stripe cannot be reached;
 * then its checkout sessions are remembered too, so a purchase made before payment intents were
 * stored, or a session that completes later, never grants access either.
 */
async function revokePayment(
  db: DB,
  stripe: Stripe,
  paymentIntent: string | null,
  reason: RevocationReason,
  stripeEventId: string,
) {
  if (!paymentIntent) {
    log.warn(`[stripe] ${reason} payment without a payment intent (event ${stripeEventId}): nothing to revoke`);
    return;
  }
  await revokeCheckout(db, { reason, stripeEventId, paymentIntent, sessionIds: [] });
  const sessions = await stripe.checkout.sessions.list({ payment_intent: paymentIntent, limit: 10 });
  await revokeCheckout(db, { reason, stripeEventId, paymentIntent, sessionIds: sessions.data.map((x) => x.id) });
}
