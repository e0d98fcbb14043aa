import type Stripe from "stripe";
import { env } from "../env.server";

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
  console.warn(`[stripe] checkout is not configured: set ${missing.join(" and ")} to enable payments (buyers see "${STRIPE_NOT_CONFIGURED}")`);
}

let sdk: Promise<typeof Stripe> | undefined;
/**
 * Imported by name at run time: a literal `import("stripe")` makes the browser build (which walks
 * server/ for the route modules' imports before tree-shaking them away) emit the SDK as an unused
 * 240 KB chunk under public/build.
 */
const STRIPE_MODULE = "stripe";

/**
 * The Stripe SDK, pointed at STRIPE_API_BASE when set (a local Stripe-compatible server in tests).
 * Loaded on first use, so an install without payments does not carry it in memory.
 */
export async function stripeClient(): Promise<Stripe | null> {
  const e = env();
  if (!e.STRIPE_SECRET_KEY) {
    warnNotConfigured(missingStripeSettings(e));
    return null;
  }
  const StripeSdk = await (sdk ??= (import(STRIPE_MODULE) as Promise<{ default: typeof Stripe }>).then((m) => m.default));
  const opts: ConstructorParameters<typeof StripeSdk>[1] = { maxNetworkRetries: 1, timeout: 15_000 };
  if (e.STRIPE_API_BASE) {
    const u = new URL(e.STRIPE_API_BASE);
    Object.assign(opts, {
      host: u.hostname,
      port: Number(u.port || (u.protocol === "https:" ? 443 : 80)),
      protocol: u.protocol.replace(":", "") as "http" | "https",
    });
  }
  return new StripeSdk(e.STRIPE_SECRET_KEY, opts);
}
