import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Check, X } from "lucide-react";
import { PackageCalculator } from "~/components/marketing/PackageCalculator";
import { SectionHeading } from "~/components/marketing/Section";
import { PageIntro } from "~/components/ui/PageIntro";
import { PAYMENT_METHODS } from "#domain/packages";
import { invoiceTerms } from "#domain/payment-plan";
import { getPromotion, offeredPackages } from "#domain/catalogue";
import { seo } from "~/lib/seo";
import { currentStudio } from "../../server/studio/current.server";

export async function loader() {
  const studio = await currentStudio();
  return { catalogue: studio.catalogue, paymentTerms: studio.paymentTerms };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  seo(matches, {
    title: "Packages and pricing",
    description: `${(data ? offeredPackages(data.catalogue) : []).map((p) => `${p.name} ${p.priceDisplay}`).join(", ")}: fixed-price website packages with optional add-ons.`,
    path: "/packages",
  });

export default function Packages() {
  const { catalogue, paymentTerms } = useLoaderData<typeof loader>();
  const packages = offeredPackages(catalogue);
  return (
    <>
      <PageIntro eyebrow="Packages" title="Fixed prices. Clear scope.">
        <p>
          {packages.length === 1 ? "One package" : `${["", "One", "Two", "Three"][packages.length]} packages`} cover
          almost every project. Add what you need, see the price instantly, and book when you are ready.
        </p>
      </PageIntro>

      <section className="container-page" aria-label="Packages">
        <ul
          className={`grid gap-6 ${packages.length === 3 ? "lg:grid-cols-3" : packages.length === 2 ? "lg:grid-cols-2" : ""}`}
        >
          {packages.map((p) => {
            const promo = getPromotion(catalogue, p.id);
            return (
              <li
                key={p.id}
                className={`card relative flex flex-col p-8 ${p.recommended ? "border-ink shadow-raised" : ""}`}
              >
                {p.recommended ? (
                  <span className="absolute -top-3 left-8 rounded-full bg-ink px-3 py-1 text-xs font-semibold text-paper">
                    Most Popular
                  </span>
                ) : null}
                <h2 className="text-3xl">{p.name}</h2>
                <p className="mt-1 text-sm text-ink-muted">{p.timeline}</p>
                <p className="mt-6 font-display text-5xl">{p.priceDisplay}</p>
                {promo ? (
                  <p className="mt-3 inline-flex self-start rounded-full bg-accent-soft px-3 py-1 text-xs font-semibold text-accent-ink">
                    {promo.badge} with the portfolio offer
                  </p>
                ) : null}
                {p.description ? <p className="mt-5 leading-relaxed text-ink-soft">{p.description}</p> : null}
                {p.included.length ? <ScopeList title="Included" items={p.included} included /> : null}
                {p.notIncluded.length ? (
                  <ScopeList title="Not included" items={p.notIncluded} included={false} />
                ) : null}
                <div className="mt-auto pt-8">
                  <Link to={p.ctaLink} className={`${p.recommended ? "btn-primary" : "btn-dark"} w-full py-3`}>
                    {p.cta}
                  </Link>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="container-page mt-20" aria-label="Price calculator">
        <PackageCalculator catalogue={catalogue} />
      </section>

      <section className="container-page mt-24" aria-labelledby="schedule-title">
        <SectionHeading
          id="schedule-title"
          eyebrow="Payments"
          title="How payment works"
          intro={`${invoiceTerms(paymentTerms)} Pay by ${PAYMENT_METHODS.join(", ")}.`}
        />
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {paymentTerms.stages.map((s) => (
            <li key={s.label} className="card p-8">
              <p className="font-display text-5xl text-accent">{s.percent}%</p>
              <p className="mt-3 text-lg font-semibold">{s.label}</p>
              <p className="mt-1 text-ink-muted">{s.description}</p>
            </li>
          ))}
        </ol>
        <p className="mt-10 text-center">
          <Link to="/booking" className="btn-dark px-6 py-3">
            Book a free consultation
          </Link>
        </p>
      </section>
    </>
  );
}

/** What a package includes (ticks) or leaves out (crosses). */
function ScopeList({ title, items, included }: { title: string; items: string[]; included: boolean }) {
  const Icon = included ? Check : X;
  return (
    <>
      <h3 className="mt-6 font-sans text-sm font-semibold text-ink">{title}</h3>
      <ul className="mt-3 space-y-2 text-sm">
        {items.map((i) => (
          <li key={i} className={`flex gap-2 ${included ? "text-ink-soft" : "text-ink-muted"}`}>
            <Icon aria-hidden="true" className={`mt-0.5 h-4 w-4 shrink-0 ${included ? "text-shop" : ""}`} />
            {i}
          </li>
        ))}
      </ul>
    </>
  );
}
