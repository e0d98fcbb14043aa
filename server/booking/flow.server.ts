import { redirect } from "@remix-run/node";
import { bookableAddOns, getPackage, isPackageId } from "~/content/packages";
import { getCampaign } from "~/content/promotions";
import { earliestStartDate, PRIMARY_GOALS } from "~/lib/booking-schema";
import { clampStep, furthestAllowedStep, type BookingFormState } from "~/lib/booking-state";
import { formatDollars } from "~/lib/money";
import { hasComputedPrice, parseSelectionFromQuery } from "~/lib/pricing";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { priceOf } from "./booking.server";
import { getOrCreateDraft, saveDraftState, type Draft } from "./draft.server";

/** Where a first visit came from: utm parameters, else an external referrer, else direct. */
export function sourceOf(url: URL, referer: string | null): string {
  const utm = ["utm_source", "utm_medium", "utm_campaign"].map((k) => url.searchParams.get(k)).filter(Boolean);
  if (utm.length) return `utm:${utm.join("/")}`.slice(0, 200);
  if (referer) {
    try {
      const r = new URL(referer);
      if (r.host !== url.host) return `referrer:${r.host}`.slice(0, 200);
    } catch {
      /* ignore malformed referer */
    }
  }
  return "direct";
}

/**
 * Loads (or starts) the draft for GET /booking: applies a selection arriving from /packages,
 * records the source of the first visit, and redirects a locked step to the first incomplete one.
 */
export async function loadBookingStep(db: DB, request: Request) {
  const url = new URL(request.url);
  const { draft: initial, setCookie } = await getOrCreateDraft(db, request, { fresh: true });
  let draft: Draft = initial;
  const patch: Partial<BookingFormState> = {};
  const sel = parseSelectionFromQuery(url.searchParams, "booking");
  if (sel) {
    patch.selectedPackage = sel.packageId;
    patch.selectedAddOns = sel.selectedAddOns;
    patch.addOnQuantities = sel.addOnQuantities;
    patch.campaignAccepted = sel.campaignAccepted;
  }
  if (!draft.state.source) patch.source = sourceOf(url, request.headers.get("referer"));
  if (Object.keys(patch).length) draft = await saveDraftState(db, draft, patch);

  const allowed = furthestAllowedStep(draft.state, draft.completed);
  const requested = url.searchParams.has("step") ? clampStep(url.searchParams.get("step")) : 1;
  const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
  if (requested > allowed || (url.searchParams.has("step") && String(requested) !== url.searchParams.get("step"))) {
    throw redirect(`/booking?step=${Math.min(requested, allowed)}`, { headers });
  }
  return { draft, step: requested, allowed, headers };
}

/** Everything the step views need, computed on the server. */
export function stepViewData(draft: Draft, step: number, allowed: number) {
  const s = draft.state;
  const pkg = isPackageId(s.selectedPackage) ? s.selectedPackage : null;
  const price = priceOf(s);
  const tier = pkg ? getPackage(pkg) : null;
  const computed = pkg ? hasComputedPrice(pkg) : true;
  const total = tier && !computed ? tier.priceDisplay : formatDollars(price.total, { decimals: 2 });
  const e = env();
  return {
    step,
    allowed,
    state: s,
    files: draft.files,
    selection: { packageId: pkg ?? "essentials", selectedAddOns: s.selectedAddOns, addOnQuantities: s.addOnQuantities, campaignAccepted: s.campaignAccepted } as const,
    addOns: pkg ? bookableAddOns(pkg) : [],
    campaign: pkg ? getCampaign(pkg) : undefined,
    computed,
    total,
    packageName: tier?.name ?? "",
    goalLabel: PRIMARY_GOALS.find((g) => g.id === s.primaryGoal)?.label ?? "",
    earliest: earliestStartDate(),
    calendlyUrl: e.CALENDLY_URL,
    addOnLines: price.lines.map((l) => ({ name: l.addOn.name, quantity: l.quantity, amount: formatDollars(l.amount) })),
    discount: price.discount ? `${price.discountPercent}% (−${formatDollars(price.discount)})` : "",
  };
}
