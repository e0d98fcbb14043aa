import type { ClientLoaderFunctionArgs, MetaFunction } from "@remix-run/react";
import { Await, Link, useLoaderData } from "@remix-run/react";
import { ArrowRight, Check } from "lucide-react";
import { Suspense, type ReactNode } from "react";
import { CaseCover, SectionHeading } from "~/components/marketing/Section";
import { OfferBanner, PromoPrice } from "~/components/marketing/PromoPrice";
import { TemplatesTeaser, type TeaserItem } from "~/components/marketing/TemplatesTeaser";
import { Testimonials } from "~/components/marketing/Testimonials";
import type { PackageTier } from "#domain/packages";
import { getPromotion } from "#domain/catalogue";
import { formatDollars } from "#domain/money";
import { seo, studioNameFrom } from "~/lib/seo";
import { useStudio } from "~/lib/use-studio";
import { publicCaller } from "../../server/trpc/page-data.server";
import { currentStudio } from "../../server/studio/current.server";
import { log } from "../../server/log.server";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: `${studioNameFrom(matches)} — conversion-focused websites at a fixed price`,
    description:
      "Boutique digital design for founders and growing companies. Fixed-price website packages delivered in 2-8 weeks, ready-made templates, and a free consultation.",
    path: "/",
  });

/**
 * The featured templates come with the document: the query is a few indexed rows from SQLite, so
 * deferring it only added a Suspense round and a streamed script to every server render.
 */
export async function loader() {
  const [featured, studio] = await Promise.all([
    publicCaller()
      .templates.featured()
      .catch((error): TeaserItem[] => {
        log.error({ err: error }, "[home] teaser query failed");
        return [];
      }),
    currentStudio(),
  ]);
  const { identity, catalogue } = studio;
  return { featured, content: homeContent(studio, identity, catalogue) };
}

/** What the home page shows of the studio's settings (read on the server at every load). */
function homeContent(
  studio: Awaited<ReturnType<typeof currentStudio>>,
  identity: Awaited<ReturnType<typeof currentStudio>>["identity"],
  catalogue: Awaited<ReturnType<typeof currentStudio>>["catalogue"],
) {
  return {
    about: {
      designer: identity.designer,
      bio: identity.bio,
      socialUrl: identity.socialUrl,
      socialLabel: identity.socialLabel,
      contactEmail: identity.contactEmail,
      trustedBy: identity.trustedBy,
    },
    // Only what the home page shows (the document carries it): offered tiers with their first four
    // inclusions, the promotion, the first three case studies with their cover.
    catalogue: {
      packages: catalogue.packages
        .filter((p) => p.offered)
        .map((p) => ({ ...p, description: "", included: p.included.slice(0, 4), notIncluded: [], addOns: [] })),
      promotions: catalogue.promotions,
    },
    caseStudies: studio.caseStudies.slice(0, 3).map((c) => ({
      id: c.id,
      title: c.title,
      industry: c.industry,
      gradient: c.gradient,
      images: c.images.slice(0, 1),
    })),
    testimonials: studio.testimonials,
  };
}

type HomeContent = ReturnType<typeof homeContent>;

/**
 * The sections drawn from the studio's settings: at once on the server and on a document load, when
 * the server answers on a client-side visit (nothing is drawn in their place until then).
 */
function WithContent({
  content,
  children,
}: {
  content: HomeContent | Promise<HomeContent>;
  children: (c: HomeContent) => ReactNode;
}) {
  return (
    <Suspense fallback={null}>
      <Await resolve={content}>{children}</Await>
    </Suspense>
  );
}

const TEASER_CACHE_KEY = "featured_templates";
const TEASER_TTL_MS = 5 * 60 * 1000;

/**
 * In the browser the teaser is cached in session storage for 5 minutes. Without a fresh cache the
 * page shows at once with the four skeleton cards while the list is fetched; with one, the cached
 * cards show at once. The studio's words and prices are always asked of the server (a save in
 * Settings shows at the next load), the sections that show them drawn when they arrive.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  let cached: TeaserItem[] | undefined;
  try {
    const raw = window.sessionStorage.getItem(TEASER_CACHE_KEY);
    if (raw) {
      const saved = JSON.parse(raw) as { at: number; items: TeaserItem[] };
      if (Date.now() - saved.at < TEASER_TTL_MS && Array.isArray(saved.items)) cached = saved.items;
    }
  } catch {
    console.warn("[home] ignoring corrupt teaser cache");
  }
  const server = serverLoader<typeof loader>();
  const content = server.then((d) => d.content);
  if (cached) return { featured: cached, content };
  const featured = server.then(({ featured: items }) => {
    try {
      if (items.length) window.sessionStorage.setItem(TEASER_CACHE_KEY, JSON.stringify({ at: Date.now(), items }));
    } catch {
      /* storage full or unavailable */
    }
    return items;
  });
  return { featured, content };
}

/** One package on the home page: name, timeline, price, three inclusions and a link. */
function TierCard({
  tier,
  price,
  to,
  cta,
  label,
  featured = false,
}: {
  tier: PackageTier;
  price: ReactNode;
  to: string;
  cta: string;
  label: string;
  featured?: boolean;
}) {
  return (
    <article className={`card relative flex flex-col p-8 ${featured ? "border-ink shadow-raised" : ""}`}>
      {featured ? (
        <span className="absolute -top-3 left-8 rounded-full bg-ink px-3 py-1 text-xs font-semibold text-paper">
          Most Popular
        </span>
      ) : null}
      <h3 className="text-3xl">{tier.name}</h3>
      <p className="mt-2 text-sm text-ink-muted">
        {tier.timeline} · {tier.included[0]}
      </p>
      {price}
      <ul className="mb-8 mt-6 space-y-2 text-sm text-ink-soft">
        {tier.included.slice(1, 4).map((i) => (
          <li key={i} className="flex gap-2">
            <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-accent" />
            {i}
          </li>
        ))}
      </ul>
      <Link to={to} className={`${featured ? "btn-dark" : "btn-ghost"} mt-auto w-full`} aria-label={label}>
        {cta}
      </Link>
    </article>
  );
}

export default function Home() {
  const { featured, content } = useLoaderData<typeof loader>();
  const studio = useStudio();
  return (
    <>
      <section className="container-page pb-16 pt-16 sm:pb-24 sm:pt-28" aria-labelledby="hero-title">
        <p className="eyebrow">{studio.name} · independent web design</p>
        <h1 id="hero-title" className="mt-5 max-w-5xl text-[2.9rem] leading-[1.02] sm:text-[5.25rem]">
          Websites that win clients, <em className="text-accent">at a fixed price.</em>
        </h1>
        <p className="mt-7 max-w-2xl text-lg leading-relaxed text-ink-muted sm:text-xl">
          Conversion-focused design for founders and growing companies. Clear packages, delivery in 2-8 weeks and no
          scope creep: you know the price and the launch date before we start.
        </p>
        <div className="mt-10 flex flex-wrap gap-3">
          <Link to="/packages" className="btn-dark px-6 py-3 text-base">
            View packages
          </Link>
          <Link to="/work" className="btn-ghost px-6 py-3 text-base">
            See my work
          </Link>
        </div>
        <WithContent content={content}>
          {({ about }) =>
            about.trustedBy.length ? (
              <ul className="mt-14 flex flex-wrap gap-x-8 gap-y-3 text-sm text-ink-muted" aria-label="Trusted by">
                <li className="font-semibold uppercase tracking-[0.18em] text-ink-faint">Trusted by</li>
                {about.trustedBy.map((n) => (
                  <li key={n} className="font-display text-lg text-ink-soft">
                    {n}
                  </li>
                ))}
              </ul>
            ) : null
          }
        </WithContent>
      </section>

      <WithContent content={content}>{({ catalogue }) => <OfferBanner catalogue={catalogue} />}</WithContent>

      <section className="container-page py-20 sm:py-28" aria-labelledby="teaser-title">
        <div className="flex flex-col justify-between gap-6 sm:flex-row sm:items-end">
          <SectionHeading
            id="teaser-title"
            eyebrow="Templates"
            title="Ready-made templates"
            intro="Launch in 2-3 days with a production-ready template. One-time payment, lifetime access and updates."
          />
          <Link to="/templates" className="btn-shop shrink-0">
            Browse all templates <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </Link>
        </div>
        <TemplatesTeaser featured={featured} />
      </section>

      <WithContent content={content}>
        {({ about, catalogue, caseStudies, testimonials }) => {
          const tiers = catalogue.packages.filter((p) => p.offered);
          return (
            <>
              {caseStudies.length ? (
                <section className="border-y border-line bg-paper-raised py-20 sm:py-28" aria-labelledby="work-title">
                  <div className="container-page">
                    <div className="flex flex-col justify-between gap-6 sm:flex-row sm:items-end">
                      <SectionHeading
                        id="work-title"
                        eyebrow="Selected work"
                        title="Recent projects"
                        intro="A few of the websites I designed and built for clients."
                      />
                      <Link to="/work" className="btn-ghost shrink-0">
                        View all projects
                      </Link>
                    </div>
                    <ul className="mt-12 grid gap-6 md:grid-cols-3">
                      {caseStudies.map((c, i) => (
                        <li key={c.id} className="card group overflow-hidden">
                          <Link to={`/work/${c.id}`} className="block">
                            <CaseCover study={c} label={`Project ${i + 1}: ${c.industry}`} index={i + 1} />
                            <div className="p-6">
                              <p className="text-xs font-semibold uppercase tracking-wider text-ink-muted">
                                {c.industry}
                              </p>
                              <p className="mt-2 font-display text-2xl leading-snug group-hover:text-accent">
                                {c.title}
                              </p>
                            </div>
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </div>
                </section>
              ) : null}

              <section className="container-page py-20 sm:py-28" aria-labelledby="pricing-title">
                <SectionHeading
                  id="pricing-title"
                  eyebrow="Pricing"
                  title="Fixed prices, no surprises"
                  intro="Pick the package that fits. Every price is fixed before we start."
                />
                <div
                  className={`mt-12 grid gap-6 ${tiers.length === 3 ? "lg:grid-cols-3" : tiers.length === 2 ? "lg:grid-cols-2" : ""}`}
                >
                  {tiers.map((tier) =>
                    tier.requiresCall ? (
                      <TierCard
                        key={tier.id}
                        tier={tier}
                        price={<p className="mt-6 font-display text-5xl">{tier.priceDisplay}</p>}
                        to={tier.ctaLink}
                        cta={`${tier.name} package details`}
                        label={`${tier.name} package details`}
                        featured={tier.recommended}
                      />
                    ) : (
                      <TierCard
                        key={tier.id}
                        tier={tier}
                        price={
                          getPromotion(catalogue, tier.id) ? (
                            <PromoPrice catalogue={catalogue} tier={tier} />
                          ) : (
                            <p className="mt-6 font-display text-5xl">{formatDollars(tier.basePrice)}</p>
                          )
                        }
                        to="/packages"
                        cta="Full details"
                        label={`Full details of the ${tier.name} package`}
                        featured={tier.recommended}
                      />
                    ),
                  )}
                </div>
                <p className="mt-8 text-center">
                  <Link to="/packages" className="link-underline text-sm font-semibold">
                    Compare options and add-ons
                  </Link>
                </p>
              </section>

              <section className="border-y border-line bg-paper-raised py-20 sm:py-28" aria-labelledby="about-title">
                <div className="container-page grid gap-12 md:grid-cols-[0.9fr_1.1fr] md:items-center">
                  <div
                    role="img"
                    aria-label={`Portrait placeholder of ${about.designer || studio.name}`}
                    className="aspect-[4/5] w-full max-w-sm rounded-card"
                    style={{ backgroundImage: "linear-gradient(160deg, #efeae1 0%, #f6d5c4 55%, #b4421a 140%)" }}
                  />
                  <div>
                    <SectionHeading
                      id="about-title"
                      eyebrow="About"
                      title={about.designer ? `Hi, I'm ${about.designer}.` : `About ${studio.name}`}
                    />
                    {about.bio.map((p) => (
                      <p key={p} className="mt-5 max-w-prose text-lg leading-relaxed text-ink-soft">
                        {p}
                      </p>
                    ))}
                    <div className="mt-8 flex flex-wrap gap-3">
                      {about.socialUrl ? (
                        <a href={about.socialUrl} className="btn-ghost" rel="noopener noreferrer" target="_blank">
                          {about.socialLabel || "Social"}
                        </a>
                      ) : null}
                      {about.contactEmail ? (
                        <a href={`mailto:${about.contactEmail}`} className="btn-ghost">
                          {about.contactEmail}
                        </a>
                      ) : null}
                    </div>
                  </div>
                </div>
              </section>

              <Testimonials items={testimonials} eyebrow="Testimonials" className="container-page py-20 sm:py-28" />
            </>
          );
        }}
      </WithContent>

      <section className="container-page py-24 text-center sm:py-32" aria-labelledby="cta-title">
        <h2 id="cta-title" className="mx-auto max-w-3xl text-5xl leading-[1.05] sm:text-6xl">
          Let&apos;s talk about your website.
        </h2>
        <p className="mx-auto mt-5 max-w-xl text-lg text-ink-muted">
          Book a free 20-minute consultation. No pitch, just a clear plan and a fixed price.
        </p>
        <Link to="/booking" className="btn-primary mt-10 px-8 py-3.5 text-base">
          Book a free consultation
        </Link>
      </section>
    </>
  );
}
