import { redirect } from "@remix-run/node";
import { isPackageId } from "#domain/packages";
import { bookableAddOns, getCampaign, getPackage, offeredPackages, type Catalogue } from "#domain/catalogue";
import { earliestStartDate, goalLabel } from "#domain/booking-schema";
import { clampStep, emptyFormState, furthestAllowedStep, UTM_KEYS, type BookingFormState } from "#domain/booking-state";
import { hasComputedPrice, parseSelectionFromQuery, selectionToQuery } from "#domain/pricing";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { reviewOf } from "../booking/review.server";
import type { Draft } from "../booking/draft.server";
import { readDraft } from "./draft-cookie.server";
import { callPickerFor } from "../booking/call-picker.server";
import type { StudioContent } from "../studio/studio.server";

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
 * A first visit's attribution, kept field by field (issue 18.6): the utm_source, utm_medium and
 * utm_campaign of the landing URL and an external referrer (origin and path, no query), as a
 * query string. Empty for a direct visit.
 */
export function originOf(url: URL, referer: string | null): string {
  const p = new URLSearchParams();
  for (const key of UTM_KEYS) {
    const value = url.searchParams.get(key)?.trim().slice(0, 100);
    if (value) p.set(key, value);
  }
  if (referer) {
    try {
      const r = new URL(referer);
      if (r.host !== url.host && (r.protocol === "https:" || r.protocol === "http:"))
        p.set("referrer", `${r.origin}${r.pathname}`.slice(0, 300));
    } catch {
      /* ignore malformed referer */
    }
  }
  return p.toString();
}

/** Only the attribution fields of a posted origin, each bounded. */
function originFields(value: string): string {
  const posted = new URLSearchParams(value.slice(0, 1000));
  const p = new URLSearchParams();
  for (const key of [...UTM_KEYS, "referrer"] as const) {
    const v = posted.get(key)?.slice(0, key === "referrer" ? 300 : 100);
    if (v) p.set(key, v);
  }
  return p.toString();
}

/** What a GET brings to the draft (a selection from /packages, the source of a first visit). */
export type Carry = Partial<
  Pick<
    BookingFormState,
    "selectedPackage" | "selectedAddOns" | "addOnQuantities" | "campaignAccepted" | "source" | "origin"
  >
>;

function carryFrom(
  params: URLSearchParams,
  known: BookingFormState,
  sourceFallback: () => Pick<BookingFormState, "source" | "origin">,
  catalogue: Catalogue,
): Carry {
  const carry: Carry = {};
  const sel = parseSelectionFromQuery(params, catalogue, "booking");
  if (sel) {
    carry.selectedPackage = sel.packageId;
    carry.selectedAddOns = sel.selectedAddOns;
    carry.addOnQuantities = sel.addOnQuantities;
    carry.campaignAccepted = sel.campaignAccepted;
  }
  if (!known.source) Object.assign(carry, sourceFallback());
  return carry;
}

/** The carry as the step-1 form posts it back (a hidden field): the /packages query format plus the source. */
export function encodeCarry(carry: Carry): string {
  const p = new URLSearchParams(
    carry.selectedPackage && isPackageId(carry.selectedPackage)
      ? selectionToQuery({
          packageId: carry.selectedPackage,
          selectedAddOns: carry.selectedAddOns ?? [],
          addOnQuantities: carry.addOnQuantities ?? {},
          campaignAccepted: Boolean(carry.campaignAccepted),
        })
      : "",
  );
  if (carry.source) p.set("source", carry.source);
  if (carry.origin) p.set("origin", carry.origin);
  return p.toString();
}

/** The carry posted back with step 1, parsed (and normalised) like the query it came from. */
export function decodeCarry(value: unknown, known: BookingFormState, catalogue: Catalogue): Carry {
  if (typeof value !== "string" || !value || value.length > 2000) return {};
  const params = new URLSearchParams(value);
  const carry = carryFrom(params, { ...known, source: "known" }, () => ({ source: "", origin: "" }), catalogue);
  const source = params.get("source");
  if (source && !known.source) carry.source = source.slice(0, 200);
  // Re-encoded through originOf's fields only, whatever was posted.
  const origin = params.get("origin");
  if (origin && !known.origin) carry.origin = originFields(origin);
  return carry;
}

/**
 * The draft for GET /booking, read only: a GET never writes. A first visit (or one after a
 * confirmed booking) sees an empty draft in memory; a selection arriving from /packages and the
 * source of the visit are shown and carried by the step-1 form, saved with its first post.
 * A locked step redirects to the first incomplete one.
 */
export async function loadBookingStep(db: DB, request: Request, catalogue: Catalogue) {
  const url = new URL(request.url);
  const stored = await readDraft(db, request);
  let draft: Draft =
    stored && !stored.confirmedAt
      ? stored
      : { id: "", bookingId: "", state: emptyFormState(), completed: [], files: [], confirmedAt: null };
  const referer = request.headers.get("referer");
  const carry = carryFrom(
    url.searchParams,
    draft.state,
    () => ({ source: sourceOf(url, referer), origin: originOf(url, referer) }),
    catalogue,
  );
  draft = { ...draft, state: { ...draft.state, ...carry } };

  const allowed = furthestAllowedStep(draft.state, draft.completed);
  const requested = url.searchParams.has("step") ? clampStep(url.searchParams.get("step")) : 1;
  if (requested > allowed || (url.searchParams.has("step") && String(requested) !== url.searchParams.get("step"))) {
    throw redirect(`/booking?step=${Math.min(requested, allowed)}`);
  }
  return {
    draft,
    step: requested,
    allowed,
    carry: encodeCarry(carry),
    fromReview: url.searchParams.get("from") === "review",
  };
}

/** Everything the step views need, computed on the server. */
export function stepViewData(
  draft: Draft,
  step: number,
  allowed: number,
  fromReview: boolean,
  studio: { catalogue: Catalogue; identity: { calendarUrl: string } },
) {
  const { catalogue } = studio;
  const s = draft.state;
  const pkg = isPackageId(s.selectedPackage) ? s.selectedPackage : null;
  const tier = pkg ? getPackage(catalogue, pkg) : null;
  const computed = pkg ? hasComputedPrice(pkg) : true;
  const e = env();
  return {
    step,
    allowed,
    state: s,
    files: draft.files,
    selection: {
      packageId: pkg ?? "essentials",
      selectedAddOns: s.selectedAddOns,
      addOnQuantities: s.addOnQuantities,
      campaignAccepted: s.campaignAccepted,
    } as const,
    addOns: pkg ? bookableAddOns(catalogue, pkg) : [],
    campaign: pkg ? getCampaign(catalogue, pkg) : undefined,
    // Each step gets only what it shows: step 1 the offered packages, step 4 the prices its live
    // total needs (the server computes the total again on every post).
    catalogue: step === 4 && pkg ? { packages: [tier!], promotions: catalogue.promotions } : null,
    packages:
      step === 1
        ? offeredPackages(catalogue).map(({ id, name, priceDisplay, timeline, recommended }) => ({
            id,
            name,
            priceDisplay,
            timeline,
            recommended,
          }))
        : [],
    computed,
    review: step === 6 ? reviewOf(s, draft.files, catalogue) : null,
    /** Opened from the review's Edit: a valid Next saves and returns to the review. */
    fromReview: fromReview && allowed === 6 && step < 6,
    packageName: tier?.name ?? "",
    goalLabel: goalLabel(s.primaryGoal ?? ""),
    earliest: earliestStartDate(),
    calendlyUrl: studio.identity.calendarUrl || e.CALENDLY_URL,
  };
}

/**
 * GET /booking's view: the step's data, the carry of a first visit, and on step 6 with the
 * built-in calendar the times to pick from (issue 43.4); null with Calendly, whose frame has its own.
 */
export async function bookingStepView(db: DB, request: Request, studio: StudioContent) {
  const { draft, step, allowed, carry, fromReview } = await loadBookingStep(db, request, studio.catalogue);
  const callPicker =
    step === 6 && studio.calendar.provider === "builtin"
      ? await callPickerFor(db, studio.calendar, draft.state.callTimeZone, new URL(request.url))
      : null;
  return { ...stepViewData(draft, step, allowed, fromReview, studio), carry, callPicker };
}
