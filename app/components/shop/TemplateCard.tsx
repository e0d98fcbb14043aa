import { Link } from "@remix-run/react";
import { Check, ShoppingBag, Star } from "lucide-react";
import { categoryMeta } from "#domain/categories";
import { formatDollars } from "#domain/money";
import type { TemplateCardDTO } from "../../../server/shop/templates.server";
import { TemplatePreview } from "./TemplatePreview";

export type CardTemplate = Omit<TemplateCardDTO, "createdAt"> & { owned?: boolean };

export function TemplateCard({ t, eager = false }: { t: CardTemplate; eager?: boolean }) {
  const sale = t.onSale && t.originalPrice !== null && t.originalPrice > t.price;
  return (
    <li className="card group flex flex-col overflow-hidden transition-shadow hover:shadow-raised">
      <Link to={`/templates/${t.slug}`} className="flex flex-1 flex-col" aria-label={`${t.name}: ${t.tagline}`}>
        <div className="relative overflow-hidden border-b border-line">
          <TemplatePreview
            name={t.name}
            category={t.category}
            imageUrl={t.imageUrl}
            eager={eager}
            className="transition-transform duration-300 group-hover:scale-[1.02]"
          />
          <div className="absolute left-3 top-3 flex gap-1.5">
            {t.featured ? (
              <span className="rounded-full bg-ink px-2.5 py-1 text-xs font-semibold text-paper">Featured</span>
            ) : null}
            {sale ? (
              <span className="rounded-full bg-accent px-2.5 py-1 text-xs font-semibold text-white">Sale</span>
            ) : null}
            {t.owned ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-shop px-2.5 py-1 text-xs font-semibold text-white">
                <Check aria-hidden="true" className="h-3 w-3" /> Owned
              </span>
            ) : null}
          </div>
        </div>
        <div className="flex flex-1 flex-col p-5">
          <div className="flex items-start justify-between gap-3">
            <p className="text-xs font-semibold uppercase tracking-wider text-shop">{categoryMeta(t.category).label}</p>
            {/* One line either way, so every card's title starts at the same height. */}
            <p className="whitespace-nowrap text-right">
              {sale ? <s className="mr-1.5 text-xs text-ink-faint">{formatDollars(t.originalPrice!)}</s> : null}
              <span className="font-semibold">{formatDollars(t.price)}</span>
            </p>
          </div>
          <h3 className="mt-1 font-display text-2xl">{t.name}</h3>
          <p className="mt-1 text-sm leading-relaxed text-ink-muted">{t.tagline}</p>
          <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Tags">
            {t.tags.slice(0, 3).map((tag) => (
              <li key={tag} className="rounded-full bg-paper-sunk px-2.5 py-0.5 text-xs text-ink-soft">
                {tag}
              </li>
            ))}
          </ul>
          {/* Real figures only (issue 29): stars once there are reviews, sales once there are some. */}
          <div className="mt-auto flex items-center justify-between gap-3 pt-4 text-sm text-ink-muted">
            {t.reviewCount > 0 ? (
              <span className="inline-flex items-center gap-1">
                <Star aria-hidden="true" className="h-4 w-4 fill-current text-amber-500" />
                <span className="font-medium text-ink">{t.rating.toFixed(1)}</span> ({t.reviewCount})
              </span>
            ) : (
              <span className="rounded-full bg-shop-soft px-2 py-0.5 text-xs font-semibold text-shop">New</span>
            )}
            {t.salesCount > 0 ? (
              <span className="inline-flex items-center gap-1">
                <ShoppingBag aria-hidden="true" className="h-4 w-4" /> {t.salesCount}{" "}
                {t.salesCount === 1 ? "sale" : "sales"}
              </span>
            ) : null}
          </div>
          {t.owned ? <p className="mt-3 text-sm font-semibold text-shop">You own this</p> : null}
        </div>
      </Link>
    </li>
  );
}
