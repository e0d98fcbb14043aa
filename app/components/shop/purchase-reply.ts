import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";

/**
 * What the template page's action answers a purchase or download post made through a fetcher
 * (`reply=json`): the file's link and the new count, the checkout's URL, "already owned", or why
 * not. The route's action is declared to return it, so the two cannot drift apart.
 */
export type PurchaseReply =
  | { download: inferRouterOutputs<AppRouter>["downloads"]["create"] }
  | { checkoutUrl: string }
  | { alreadyOwned: true }
  | { error: string };
