import type Stripe from "stripe";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { fulfilSession } from "./checkout.server";
import { refundByStripeSession } from "./purchases.server";
import { stripeClient } from "./stripe.server";

function text(status: number, body: string) {
  return new Response(body, { status, headers: { "Content-Type": "text/plain" } });
}

/**
 * POST /webhooks/stripe: the signature is verified on the raw body; each event id is processed
 * once; paid checkouts become purchases exactly once; refunds remove access.
 */
export async function handleStripeWebhook(db: DB, request: Request): Promise<Response> {
  const e = env();
  const stripe = await stripeClient();
  const signature = request.headers.get("stripe-signature");
  const raw = await request.text();
  if (!stripe || !e.STRIPE_WEBHOOK_SECRET || !signature) return text(400, "Webhook signature missing or Stripe not configured");
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw, signature, e.STRIPE_WEBHOOK_SECRET);
  } catch {
    return text(400, "Invalid signature");
  }
  const seen = await db.insertInto("stripe_events").values({ id: event.id, type: event.type }).onConflict((oc) => oc.column("id").doNothing()).executeTakeFirst();
  if (Number(seen.numInsertedOrUpdatedRows ?? 0) === 0) return text(200, "duplicate");
  try {
    if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
      const s = event.data.object as Stripe.Checkout.Session;
      await fulfilSession(db, { id: s.id, payment_status: s.payment_status, amount_total: s.amount_total, metadata: s.metadata, client_reference_id: s.client_reference_id });
    } else if (event.type === "charge.refunded") {
      const charge = event.data.object as Stripe.Charge;
      const pi = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      if (pi) {
        const sessions = await stripe.checkout.sessions.list({ payment_intent: pi, limit: 1 });
        for (const s of sessions.data) await refundByStripeSession(db, s.id);
      }
    }
  } catch (error) {
    // Let Stripe retry: forget the event so the retry is processed.
    await db.deleteFrom("stripe_events").where("id", "=", event.id).execute();
    console.error("[stripe] webhook processing failed", error);
    return text(500, "processing failed");
  }
  return text(200, "ok");
}
