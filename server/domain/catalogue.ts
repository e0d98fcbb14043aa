/**
 * The packages and the promotion as every page, the pricing rules and the server read them
 * (issue 29: prices are data). Client-safe and free of zod: the packages page ships it.
 * `catalogueFrom` turns what the owner saved into what pages read; the sample studio's is
 * `sampleCatalogue` (app/content/sample-catalogue.ts, never shipped to browsers).
 */
import { DEFAULT_MAX_QUANTITY, type AddOn, type PackageId, type PackageTier, type PackageTierData } from "./packages";
import { promotionText, type Promotion, type PromotionData } from "./promotions";
import { formatDollars } from "./money";

export type CatalogueData = { packages: PackageTierData[]; promotion: PromotionData };
export type Catalogue = { packages: PackageTier[]; promotions: Promotion[] };

export { DEFAULT_MAX_QUANTITY };

/** What pages read from what the owner saved: display prices, links, the promotion's texts filled in. */
export function catalogueFrom(data: CatalogueData): Catalogue {
  const packages = data.packages.map((p): PackageTier => ({
    ...p,
    priceDisplay: p.priceLabel.trim() || formatDollars(p.basePrice),
    ctaLink: `/booking?tier=${p.id}`,
    requiresCall: p.id === "custom",
  }));
  const p = data.promotion;
  const tier = packages.find((t) => t.id === p.packageId);
  const fill = (text: string) => promotionText(text, p.discountPercent, tier?.name ?? "");
  const promotions: Promotion[] =
    tier && tier.offered
      ? [
          {
            ...p,
            id: "promotion",
            badge: fill(p.badge),
            title: fill(p.title),
            description: fill(p.description),
            requirement: fill(p.requirement),
            ctaText: fill(p.ctaText),
          },
        ]
      : [];
  return { packages, promotions };
}

/** A catalogue with nothing in it (a step that was sent no prices computes nothing). */
export const EMPTY_CATALOGUE: Catalogue = { packages: [], promotions: [] };

export function getPackage(c: Catalogue, id: string | null | undefined): PackageTier | undefined {
  return c.packages.find((p) => p.id === id);
}

/** The tiers a visitor can choose (at least one is always offered). */
export function offeredPackages(c: Catalogue): PackageTier[] {
  return c.packages.filter((p) => p.offered);
}

/** A package a visitor may book: known and offered. */
export function isOfferedPackage(c: Catalogue, id: unknown): id is PackageId {
  return typeof id === "string" && offeredPackages(c).some((p) => p.id === id);
}

/** Add-ons offered for a package in the booking flow (Custom's are on the packages page only). */
export function bookableAddOns(c: Catalogue, id: PackageId): AddOn[] {
  const tier = getPackage(c, id);
  return !tier || tier.requiresCall ? [] : tier.addOns;
}

export function getAddOn(c: Catalogue, packageId: PackageId, addOnId: string): AddOn | undefined {
  return getPackage(c, packageId)?.addOns.find((a) => a.id === addOnId);
}

/** The enabled promotion for a package, or undefined. */
export function getPromotion(c: Catalogue, packageId: string): Promotion | undefined {
  return c.promotions.find((p) => p.packageId === packageId && p.enabled);
}

/** The booking flow's view of the campaign. */
export function getCampaign(c: Catalogue, packageId: string) {
  const p = getPromotion(c, packageId);
  return p
    ? {
        badge: p.badge,
        title: p.title,
        requirement: p.requirement,
        discountPercent: p.discountPercent,
        ctaText: p.ctaText,
      }
    : undefined;
}
