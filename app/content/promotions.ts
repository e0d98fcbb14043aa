import type { PackageId } from "./packages";

export type Promotion = {
  id: string;
  enabled: boolean;
  name: string;
  packageId: PackageId;
  discountPercent: number;
  badge: string;
  title: string;
  description: string;
  requirement: string;
  ctaText: string;
};

/** The one promotion (SPEC.md §3). */
export const promotions: Promotion[] = [
  {
    id: "portfolio-feature",
    enabled: true,
    name: "Portfolio feature discount",
    packageId: "essentials",
    discountPercent: 40,
    badge: "40% OFF",
    title: "Get 40% off Essentials Package",
    description:
      "Limited time: save 40% on the Essentials package when you let us feature your new website in our portfolio.",
    requirement: "Allow us to showcase your website in our portfolio",
    ctaText: "Yes! Feature my site & save 40%",
  },
];

/** The enabled promotion for a package, or undefined. */
export function getPromotion(packageId: string, list: Promotion[] = promotions): Promotion | undefined {
  return list.find((p) => p.packageId === packageId && p.enabled);
}

/** The booking flow's view of the campaign. */
export function getCampaign(packageId: string, list: Promotion[] = promotions) {
  const p = getPromotion(packageId, list);
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
