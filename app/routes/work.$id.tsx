import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { CaseStudyArt, CaseStudyBody, CaseStudyMeta } from "~/components/marketing/CaseStudyArticle";
import { ClosingCta } from "~/components/marketing/ClosingCta";
import { GeneralErrorBoundary } from "~/components/ui/ErrorBoundary";
import { caseStudies, getCaseStudy } from "~/content/case-studies";
import { seo } from "~/lib/seo";

export async function loader({ params }: LoaderFunctionArgs) {
  const study = getCaseStudy(params.id);
  if (!study) throw Response.json({ back: "/work" }, { status: 404 });
  return { study, index: caseStudies.indexOf(study) + 1 };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo(matches, { title: data.study.title, description: data.study.challenge, path: `/work/${data.study.id}` })
    : [{ title: "Case study not found | Studio Rowan" }];

export default function CaseStudyPage() {
  const { study, index } = useLoaderData<typeof loader>();
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
          <CaseStudyArt study={study} index={index} />
        </div>
        <div className="mt-12 max-w-5xl">
          <CaseStudyBody study={study} headingLevel={2} />
        </div>
      </article>
      <ClosingCta title="Want results like these?" text="Choose a fixed-price package or book a free consultation." />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
