import type Stripe from "stripe";
import { env } from "../env.server";

export const STRIPE_NOT_CONFIGURED =
  "Stripe checkout not configured yet. Please set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to enable payments.";

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
  if (!e.STRIPE_SECRET_KEY) return null;
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
