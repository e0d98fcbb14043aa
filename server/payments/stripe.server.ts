import type Stripe from "stripe";
import type { Env } from "../env.server";
import { log } from "../log.server";

/** What buyers see when payments are off. The setting names are for the operator's log only. */
export const STRIPE_NOT_CONFIGURED = "Stripe checkout not configured yet.";

let warnedNotConfigured = false;

/** Which Stripe settings are missing, for the operator (never shown to buyers). */
export function missingStripeSettings(e: { STRIPE_SECRET_KEY?: string; STRIPE_WEBHOOK_SECRET?: string }): string[] {
  return (["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const).filter((name) => !e[name]);
}

/** Logs once per process which settings turn checkout off. */
function warnNotConfigured(missing: string[]) {
  if (warnedNotConfigured) return;
  warnedNotConfigured = true;
  log.warn(
    `[stripe] checkout is not configured: set ${missing.join(" and ")} to enable payments (buyers see "${STRIPE_NOT_CONFIGURED}")`,
  );
}

/**
 * The Stripe SDK, pointed at STRIPE_API_BASE when set (a local Stripe-compatible server in tests).
 * Loaded at the first payment, not at every start (a quarter of a megabyte the server would parse
 * when Stripe is not even configured: issue 42.4); the name is a literal, which the bundles follow.
 */
export async function stripeClient(
  e: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_BASE">,
): Promise<Stripe | null> {
  if (!e.STRIPE_SECRET_KEY) {
    warnNotConfigured(missingStripeSettings(e));
    return null;
  }
  const opts: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, timeout: 15_000 };
  if (e.STRIPE_API_BASE) {
    const u = new URL(e.STRIPE_API_BASE);
    Object.assign(opts, {
      host: u.hostname,
      port: Number(u.port || (u.protocol === "https:" ? 443 : 80)),
      protocol: u.protocol.replace(":", "") as "http" | "https",
    });
  }
  const { default: StripeSdk } = await import("stripe");
  stripeErrors = StripeSdk.errors;
  return new StripeSdk(e.STRIPE_SECRET_KEY, opts);
}

/** The SDK's error classes, once it is loaded: an error from Stripe means it was. */
let stripeErrors: typeof Stripe.errors | undefined;

/**
 * Stripe's reason when Stripe itself refused a request (it answered 4xx: an amount larger than is
 * left to refund, a charge already refunded, a card declined), else null (Stripe unreachable or
 * failing: our side or theirs, worth trying again). A refusal is the owner's to read, not a
 * server error (issue 40.5).
 */
export function stripeRefusal(error: unknown): string | null {
  if (!stripeErrors || !(error instanceof stripeErrors.StripeError)) return null;
  const status = error.statusCode ?? 0;
  if (status < 400 || status >= 500 || status === 401 || status === 429) return null;
  return error.message || null;
}
