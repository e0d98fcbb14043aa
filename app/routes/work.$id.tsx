import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft, ArrowRight } from "lucide-react";
import { CaseStudyArt, CaseStudyBody, CaseStudyGallery, CaseStudyMeta } from "~/components/marketing/CaseStudyArticle";
import { ClosingCta } from "~/components/marketing/ClosingCta";
import { GeneralErrorBoundary } from "~/components/ui/ErrorBoundary";
import { pageTitle, seo } from "~/lib/seo";
import { currentStudio } from "../../server/studio/current.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const { caseStudies } = await currentStudio();
  const study = caseStudies.find((c) => c.id === params.id);
  if (!study) throw Response.json({ back: "/work" }, { status: 404 });
  const at = caseStudies.indexOf(study);
  const link = (s: (typeof caseStudies)[number] | undefined) => (s ? { id: s.id, title: s.title } : null);
  return { study, index: at + 1, previous: link(caseStudies[at - 1]), next: link(caseStudies[at + 1]) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo(matches, {
        title: data.study.title,
        description: data.study.challenge,
        path: `/work/${data.study.id}`,
        image: data.study.images[0]?.url,
      })
    : [{ title: pageTitle(matches, "Case study not found") }];

export default function CaseStudyPage() {
  const { study, index, previous, next } = useLoaderData<typeof loader>();
  return (
    <>
      <article className="container-page pt-12 sm:pt-16" aria-labelledby="study-title">
        <Link to="/work" className="inline-flex items-center gap-2 text-sm font-medium text-ink-muted hover:text-ink">
          <ArrowLeft aria-hidden="true" className="h-4 w-4" /> All case studies
        </Link>
        <div className="mt-8 max-w-3xl">
          <CaseStudyMeta study={study} />
          <h1 id="study-title" className="mt-5 text-5xl leading-[1.05] sm:text-6xl">
            {study.title}
          </h1>
        </div>
        <div className="mt-12">
          <CaseStudyArt study={study} index={index} aspect="aspect-[4/3] sm:aspect-[2/1] lg:aspect-[5/2]" />
          <CaseStudyGallery study={study} />
        </div>
        <div className="mt-12 max-w-5xl">
          <CaseStudyBody study={study} headingLevel={2} />
        </div>
        <nav aria-label="More case studies" className="mt-16 grid gap-4 border-t border-line pt-8 sm:grid-cols-2">
          {previous ? (
            <Link to={`/work/${previous.id}`} rel="prev" className="group rounded-card p-4 hover:bg-paper-sunk">
              <span className="flex items-center gap-2 text-sm text-ink-muted">
                <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Previous case study
              </span>
              <span className="mt-1 block font-display text-2xl group-hover:underline">{previous.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={`/work/${next.id}`} rel="next" className="group rounded-card p-4 text-right hover:bg-paper-sunk">
              <span className="flex items-center justify-end gap-2 text-sm text-ink-muted">
                Next case study <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </span>
              <span className="mt-1 block font-display text-2xl group-hover:underline">{next.title}</span>
            </Link>
          ) : null}
        </nav>
      </article>
      <ClosingCta title="Want results like these?" text="Choose a fixed-price package or book a free consultation." />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
