import type { PackageId } from "./packages";
import { fillPlaceholders } from "./placeholders";

/**
 * The promotion as the owner edits it (Settings → Promotion) and as it is stored. The percent is
 * written once: `{percent}` in a text stands for it and `{package}` for the package's name, so the
 * badge, title and call to action always say the number the price uses.
 */
export type PromotionData = {
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

/** The promotion as pages read it (SPEC.md §3): its texts with the percent and the package filled in. */
export type Promotion = PromotionData & { id: string };

/** The sample studio's one promotion (SPEC.md §3). */
export const samplePromotion: PromotionData = {
  enabled: true,
  name: "Portfolio feature discount",
  packageId: "essentials",
  discountPercent: 40,
  badge: "{percent}% OFF",
  title: "Get {percent}% off {package} Package",
  description:
    "Limited time: save {percent}% on the {package} package when you let us feature your new website in our portfolio.",
  requirement: "Allow us to showcase your website in our portfolio",
  ctaText: "Yes! Feature my site & save {percent}%",
};

/** A promotion text with `{percent}` and `{package}` filled in. */
export function promotionText(text: string, percent: number, packageName: string): string {
  return fillPlaceholders(text, { percent: String(percent), package: packageName });
}
