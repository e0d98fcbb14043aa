import { Link } from "@remix-run/react";
import type { PackageTier } from "#domain/packages";
import { getPromotion, type Catalogue } from "#domain/catalogue";
import { formatDollars } from "#domain/money";

/**
 * A package's price on the home page: with the promotion enabled on it, the original price struck
 * through, the discounted price, the badge and the promotion text; otherwise the normal price.
 */
export function PromoPrice({ catalogue, tier }: { catalogue: Catalogue; tier: PackageTier }) {
  const promo = getPromotion(catalogue, tier.id);
  if (!promo) {
    return (
      <p className="mt-6 flex items-baseline gap-2">
        <span className="font-display text-5xl">{formatDollars(tier.basePrice)}</span>
        <span className="text-sm text-ink-muted">fixed price</span>
      </p>
    );
  }
  const discounted = tier.basePrice - Math.round((tier.basePrice * promo.discountPercent) / 100);
  return (
    <div className="mt-6">
      <span className="inline-flex rounded-full bg-accent px-3 py-1 text-xs font-bold tracking-wide text-white">
        {promo.badge}
      </span>
      <p className="mt-3 flex items-baseline gap-3">
        <span className="font-display text-5xl">{formatDollars(discounted)}</span>
        <s className="text-xl text-ink-faint" aria-label={`was ${formatDollars(tier.basePrice)}`}>
          {formatDollars(tier.basePrice)}
        </s>
      </p>
      <p className="mt-2 text-sm text-accent-ink">{promo.requirement}.</p>
    </div>
  );
}

export function OfferBanner({ catalogue }: { catalogue: Catalogue }) {
  const promo = catalogue.promotions.find((p) => p.enabled);
  if (!promo) return null;
  return (
    <aside aria-label="Limited-time offer" className="container-page">
      <Link
        to="/booking"
        className="group flex flex-col gap-4 rounded-card bg-ink px-6 py-6 text-paper transition-colors hover:bg-ink-soft sm:flex-row sm:items-center sm:justify-between sm:px-8"
      >
        <div className="flex items-start gap-4">
          <span className="mt-0.5 shrink-0 rounded-full bg-accent px-3 py-1 text-xs font-bold tracking-wide text-white">
            {promo.badge}
          </span>
          <div>
            <p className="font-display text-2xl leading-tight">{promo.title}</p>
            <p className="mt-1 text-sm text-paper/75">{promo.description}</p>
          </div>
        </div>
        <span className="inline-flex shrink-0 items-center gap-2 text-sm font-semibold text-paper underline decoration-paper/40 underline-offset-4 group-hover:decoration-paper">
          Claim the offer <span aria-hidden="true">→</span>
        </span>
      </Link>
    </aside>
  );
}
