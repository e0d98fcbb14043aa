/** The three fixed-price tiers and their add-ons (SPEC.md §9). Every amount is in cents. */
export const PACKAGE_IDS = ["essentials", "growth", "custom"] as const;
export type PackageId = (typeof PACKAGE_IDS)[number];

export type AddOn = {
  id: string;
  name: string;
  description: string;
  price: number;
  allowMultiple: boolean;
  maxQuantity: number;
};

/**
 * A tier as the owner edits it in the console (Settings → Packages) and as it is stored. The three
 * ids are fixed (bookings and links name them: `/booking?tier=growth`); everything else is data.
 */
export type PackageTierData = {
  id: PackageId;
  name: string;
  /** Cents. Custom's is the "from" price; it is never computed into a total. */
  basePrice: number;
  /** Shown instead of the price when set ("$15k-25k+"); empty: the price itself. */
  priceLabel: string;
  timeline: string;
  description: string;
  recommended: boolean;
  /** Shown on /packages, the home page and step 1 of the booking; at least one tier is offered. */
  offered: boolean;
  included: string[];
  notIncluded: string[];
  addOns: AddOn[];
  cta: string;
  deposit: { amount: number; percent: number };
};

/** A tier as pages read it: the data plus what follows from it. */
export type PackageTier = PackageTierData & {
  priceDisplay: string;
  ctaLink: string;
  /** Custom is quoted after a call: no computed price, no add-ons in the booking flow. */
  requiresCall: boolean;
};

export const DEFAULT_MAX_QUANTITY = 10;

export const PAYMENT_METHODS = ["Cards", "Apple Pay", "Google Pay"] as const;

export function isPackageId(value: unknown): value is PackageId {
  return typeof value === "string" && (PACKAGE_IDS as readonly string[]).includes(value);
}
