import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ClosingCta } from "~/components/marketing/ClosingCta";
import { SectionHeading } from "~/components/marketing/Section";
import { Testimonials } from "~/components/marketing/Testimonials";
import { PageIntro } from "~/components/ui/PageIntro";
import { phases, promises } from "~/content/process";
import { seo } from "~/lib/seo";
import { currentStudio } from "../../server/studio/current.server";

/** The clients' words are the studio's testimonials (Settings → Testimonials). */
export async function loader() {
  return { testimonials: (await currentStudio()).testimonials };
}

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "How we work",
    description:
      "Three promises and a four-phase process: discovery, design, build and launch, at a fixed price in 2-8 weeks.",
    path: "/process",
  });

export default function Process() {
  const { testimonials } = useLoaderData<typeof loader>();
  return (
    <>
      <PageIntro eyebrow="Process" title="How we work">
        <p>
          A simple, transparent process built around three promises. You always know the price, the date and the next
          step.
        </p>
      </PageIntro>

      <section className="container-page" aria-labelledby="promises-title">
        <h2 id="promises-title" className="sr-only">
          Three promises
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {promises.map((p, i) => (
            <li key={p.title} className="card p-8">
              <p className="font-display text-5xl text-accent">{i + 1}</p>
              <h3 className="mt-4 text-2xl">{p.title}</h3>
              <p className="mt-3 leading-relaxed text-ink-soft">{p.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="container-page mt-24" aria-labelledby="phases-title">
        <SectionHeading id="phases-title" eyebrow="Four phases" title="From first call to launch" />
        <ol className="mt-12 divide-y divide-line border-y border-line">
          {phases.map((p) => (
            <li key={p.number} className="grid gap-4 py-8 md:grid-cols-[6rem_1fr_1fr] md:gap-10">
              <p className="font-display text-4xl text-ink-faint">{p.number}</p>
              <div>
                <h3 className="text-3xl">{p.title}</h3>
                <p className="mt-1 text-sm font-medium text-accent-ink">{p.duration}</p>
                <p className="mt-3 leading-relaxed text-ink-soft">{p.description}</p>
              </div>
              <ul className="flex flex-wrap content-start gap-2" aria-label={`${p.title} deliverables`}>
                {p.deliverables.map((d) => (
                  <li key={d} className="rounded-full border border-line-strong px-3 py-1 text-sm text-ink-soft">
                    {d}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </section>

      <Testimonials items={testimonials} eyebrow="Clients" className="container-page mt-24" />

      <ClosingCta title="Ready to start?" text="See the fixed-price packages or book a free 20-minute consultation." />
    </>
  );
}
