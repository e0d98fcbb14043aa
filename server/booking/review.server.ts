import { getCampaign, getPackage, type Catalogue } from "#domain/catalogue";
import type { BookingFormState, UploadedFile } from "#domain/booking-state";
import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import { computeTotal, hasComputedPrice } from "#domain/pricing";
import { isPackageId } from "#domain/packages";
import { goalLabel } from "#domain/booking-schema";

export type ReviewRow = [label: string, value: string];
export type ReviewSection = { step: number; title: string; rows: ReviewRow[] };

/** The price of a draft, computed on the server from the catalogue. */
export function priceOf(state: BookingFormState, catalogue: Catalogue) {
  const pkg = isPackageId(state.selectedPackage) ? state.selectedPackage : "essentials";
  return computeTotal(
    {
      packageId: pkg,
      selectedAddOns: state.selectedAddOns,
      addOnQuantities: state.addOnQuantities,
      campaignAccepted: state.campaignAccepted,
    },
    { catalogue, context: "booking" },
  );
}

/**
 * The visitor's answers as the review step shows them, grouped by step; the emails print the
 * same rows. Money as whole dollars, dates as people read them, the portfolio discount only
 * where the package has the offer.
 */
export function reviewOf(
  s: BookingFormState,
  files: Pick<UploadedFile, "name">[],
  catalogue: Catalogue,
): { sections: ReviewSection[]; total: string } {
  const price = priceOf(s, catalogue);
  const tier = getPackage(catalogue, s.selectedPackage);
  const campaign = tier ? getCampaign(catalogue, tier.id) : undefined;
  const addOns = price.lines.map(
    (l) => `${l.addOn.name}${l.quantity > 1 ? ` × ${l.quantity}` : ""} (${formatMoney(l.amount)})`,
  );
  const timeline: ReviewRow[] = [
    ["Preferred start", formatCalendarDate(s.preferredStartDate)],
    ["Timeline", s.timelineFlexibility === "rush" ? "Strict Deadline" : "Flexible"],
    ["Add-ons", addOns.length ? addOns.join(", ") : "None"],
  ];
  if (campaign)
    timeline.push([
      "Portfolio discount",
      price.discount ? `${price.discountPercent}% (−${formatMoney(price.discount)})` : "No",
    ]);
  const total = tier && !hasComputedPrice(tier.id) ? tier.priceDisplay : formatMoney(price.total);
  return {
    total,
    sections: [
      {
        step: 1,
        title: "Package & contact",
        rows: [
          ["Package", tier ? `${tier.name} Package` : ""],
          ["Name", s.name],
          ["Email", s.email],
          ["Company", s.company],
          ["Phone", s.phone],
        ],
      },
      {
        step: 2,
        title: "Project details",
        rows: [
          ["Website", s.isNewSite ? "New site" : s.websiteUrl],
          ["Primary goal", s.primaryGoal ? goalLabel(s.primaryGoal) : ""],
          ["Target audience", s.targetAudience],
        ],
      },
      {
        step: 3,
        title: "Inspiration & features",
        rows: [
          ["Inspiration", [s.inspiration1, s.inspiration2, s.inspiration3].filter(Boolean).join(", ")],
          ["Must-have features", s.mustHaveFeatures],
          ["Nice-to-have features", s.niceToHaveFeatures],
        ],
      },
      { step: 4, title: "Timeline & add-ons", rows: timeline },
      {
        step: 5,
        title: "Brand assets",
        rows: [["Files", files.length ? files.map((f) => f.name).join(", ") : "None"]],
      },
    ],
  };
}
