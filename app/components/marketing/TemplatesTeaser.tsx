import { Await, Link } from "@remix-run/react";
import { Suspense } from "react";
import { categoryMeta } from "#domain/categories";
import { formatDollars } from "#domain/money";
import { TemplatePreview } from "~/components/shop/TemplatePreview";

export type TeaserItem = {
  id: string;
  slug: string;
  name: string;
  category: string;
  price: number;
  imageUrl: string | null;
};

function SkeletonCard() {
  return (
    <li aria-hidden="true" className="card overflow-hidden">
      <div className="aspect-[3/2] w-full animate-pulse bg-paper-sunk" />
      <div className="space-y-2 p-5">
        <div className="h-3 w-16 animate-pulse rounded bg-paper-sunk" />
        <div className="h-5 w-32 animate-pulse rounded bg-paper-sunk" />
        <div className="h-4 w-12 animate-pulse rounded bg-paper-sunk" />
      </div>
    </li>
  );
}

function TeaserCard({ t }: { t: TeaserItem }) {
  return (
    <li className="card group overflow-hidden transition-shadow hover:shadow-raised">
      <Link to={`/templates/${t.slug}`} className="block">
        <div className="overflow-hidden border-b border-line">
          <TemplatePreview
            name={t.name}
            category={t.category}
            imageUrl={t.imageUrl}
            className="transition-transform duration-300 group-hover:scale-[1.02]"
          />
        </div>
        <div className="p-5">
          <p className="text-xs font-semibold uppercase tracking-wider text-shop">{categoryMeta(t.category).label}</p>
          <p className="mt-1 font-display text-xl">{t.name}</p>
          <p className="mt-1 text-sm font-semibold text-ink-soft">{formatDollars(t.price)}</p>
        </div>
      </Link>
    </li>
  );
}

export function TemplatesTeaser({ featured }: { featured: Promise<TeaserItem[]> | TeaserItem[] }) {
  const skeleton = (
    <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4" aria-busy="true" aria-label="Loading templates">
      {[0, 1, 2, 3].map((i) => (
        <SkeletonCard key={i} />
      ))}
    </ul>
  );
  return (
    <Suspense fallback={skeleton}>
      <Await
        resolve={featured}
        errorElement={<p className="mt-10 text-ink-muted">Templates are unavailable right now.</p>}
      >
        {(items) =>
          items.length ? (
            <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
              {items.map((t) => (
                <TeaserCard key={t.id} t={t} />
              ))}
            </ul>
          ) : null
        }
      </Await>
    </Suspense>
  );
}
