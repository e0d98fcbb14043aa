import crypto from "node:crypto";
import { DomainError } from "../errors";
import type { SessionUser } from "../auth/auth.server";
import type { DB } from "../db/db.server";
import type { RevocationReason } from "../db/schema";
import type { Env } from "../env.server";
import { fulfilCheckout, purchaseFor } from "./purchases.server";
import { sendReceipt } from "./receipt.server";
import { STRIPE_NOT_CONFIGURED, stripeClient } from "../payments/stripe.server";
import { log } from "../log.server";

export const ALREADY_OWNED = "You already own this template! Check your dashboard to download it.";
/** A template priced below what Stripe can charge (0 included) is not sold. */
export const NOT_FOR_SALE = "This template is not for sale yet. Please check back soon.";
/** Stripe's smallest charge in US dollars, in cents. */
export const MIN_CHARGE_CENTS = 50;

/**
 * Creates a Stripe Checkout Session for a template at the price in the database (the browser
 * never sends a price). Refuses owners and templates priced below Stripe's minimum charge (a
 * price of 0 included), and explains when Stripe is not configured.
 */
export async function createCheckout(db: DB, e: Env, user: SessionUser, templateId: string): Promise<{ url: string }> {
  const template = await db
    .selectFrom("templates")
    .select(["id", "slug", "name", "tagline", "price"])
    .where("id", "=", templateId)
    .executeTakeFirst();
  if (!template) throw new DomainError("not-found", "Template not found");
  if (await purchaseFor(db, user.id, template.id)) throw new DomainError("conflict", ALREADY_OWNED);
  if (!(template.price >= MIN_CHARGE_CENTS)) throw new DomainError("invalid", NOT_FOR_SALE);
  const stripe = await stripeClient(e);
  if (!stripe) throw new DomainError("unavailable", STRIPE_NOT_CONFIGURED);
  const base = e.APP_URL;
  let session;
  try {
    session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: template.price,
            product_data: { name: `${template.name} template`, description: template.tagline },
          },
        },
      ],
      client_reference_id: user.id,
      customer_email: user.email,
      metadata: checkoutMetadata(e.SESSION_SECRET, { templateId: template.id, userId: user.id, price: template.price }),
      success_url: `${base}/templates/${template.slug}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${base}/templates/${template.slug}?checkout=cancelled`,
    });
  } catch (error) {
    log.error({ err: error }, "[checkout] Stripe refused the session");
    throw new DomainError("failed", "Failed to create checkout session");
  }
  if (!session.url) throw new DomainError("failed", "No checkout URL returned");
  return { url: session.url };
}

/**
 * What a template's checkout session carries: the template, the buyer, the price asked, and a
 * signature of the three made with the session secret, so the webhook records only sessions this
 * studio made, for the amount it asked (issue 40.5): another integration on the same Stripe
 * account, or a payment link someone makes with the same metadata, pays for no template here.
 */
export function checkoutMetadata(
  secret: string,
  m: { templateId: string; userId: string; price: number },
): Record<string, string> {
  const price = String(m.price);
  return {
    templateId: m.templateId,
    userId: m.userId,
    price,
    sig: checkoutSignature(secret, m.templateId, m.userId, price),
  };
}

function checkoutSignature(secret: string, templateId: string, userId: string, price: string): string {
  return crypto
    .createHmac("sha256", secret)
    .update(`template-checkout\n${templateId}\n${userId}\n${price}`)
    .digest("base64url")
    .slice(0, 32);
}

/**
 * The amount a paid template session must show to be ours: the price it was signed for, or, for a
 * session made before sessions were signed, the template's price now. Null when its signature is
 * wrong (a session this studio did not make).
 */
function expectedAmount(secret: string, session: PaidSession, templateId: string, userId: string, price: number) {
  const m = session.metadata ?? {};
  if (m.sig === undefined) return price;
  const good = checkoutSignature(secret, templateId, userId, m.price ?? "");
  if (m.sig.length !== good.length || !crypto.timingSafeEqual(Buffer.from(m.sig), Buffer.from(good))) return null;
  return Number(m.price);
}

type PaidSession = {
  id: string;
  payment_status: string;
  amount_total: number | null;
  currency?: string | null;
  metadata: Record<string, string> | null;
  client_reference_id: string | null;
  payment_intent: string | { id: string } | null;
};

/** What a checkout session came to: a purchase (new or already recorded), revoked, or nothing yet. */
export type SessionOutcome = "created" | "existing" | RevocationReason | "unpaid" | "invalid";

/** A Stripe id from a field that holds either the id or the expanded object. */
export function stripeId(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

/**
 * Turns a paid checkout session into a purchase (once) and emails the receipt. A refunded or
 * disputed session never grants access (decision 009).
 */
export async function fulfilSession(db: DB, e: Env, session: PaidSession): Promise<SessionOutcome> {
  if (session.payment_status !== "paid") return "unpaid";
  const templateId = session.metadata?.templateId;
  const userId = session.metadata?.userId ?? session.client_reference_id ?? undefined;
  if (!templateId || !userId) return "invalid";
  const template = await db
    .selectFrom("templates")
    .select(["id", "name", "slug", "price"])
    .where("id", "=", templateId)
    .executeTakeFirst();
  const user = await db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
  if (!template || !user) return "invalid";
  const expected = expectedAmount(e.SESSION_SECRET, session, templateId, userId, template.price);
  if (expected === null || session.amount_total !== expected || (session.currency ?? "usd") !== "usd") {
    log.warn(
      `[checkout] session ${session.id} for template ${templateId} is not one this studio made (${expected === null ? "its signature does not match" : `it paid ${session.amount_total ?? "nothing"} ${session.currency ?? ""}, not ${expected} usd`}): nothing recorded`,
    );
    return "invalid";
  }
  const amountPaid = session.amount_total;
  const r = await fulfilCheckout(db, {
    stripeSessionId: session.id,
    paymentIntent: stripeId(session.payment_intent),
    userId,
    templateId,
    amountPaid,
  });
  if (r.outcome === "revoked") return r.reason;
  if (r.outcome === "created") await sendReceipt(db, e, r.purchaseId);
  return r.outcome;
}

/** What the success URL shows: owned, still being confirmed, or the session's payment was revoked. */
export type ReconcileResult = "owned" | "pending" | RevocationReason;

/**
 * On the success URL, checks the session with Stripe so a late webhook does not strand the
 * buyer. Stripe keeps `payment_status: paid` on a refunded session, so this only ever grants
 * access through `fulfilSession`, which refuses revoked sessions.
 */
export async function reconcileSession(db: DB, e: Env, sessionId: string, userId: string): Promise<ReconcileResult> {
  const stripe = await stripeClient(e);
  if (!stripe || !/^cs_[A-Za-z0-9_]+$/.test(sessionId)) return "pending";
  try {
    const s = await stripe.checkout.sessions.retrieve(sessionId);
    if (s.metadata?.userId !== userId) return "pending";
    const outcome = await fulfilSession(db, e, s);
    if (outcome === "refunded" || outcome === "disputed") return outcome;
    return outcome === "created" || outcome === "existing" ? "owned" : "pending";
  } catch (error) {
    log.warn(`[checkout] could not retrieve session: ${error instanceof Error ? error.message : String(error)}`);
    return "pending";
  }
}
