import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CaseStudyArt, CaseStudyBody, CaseStudyMeta } from "~/components/marketing/CaseStudyArticle";
import { ClosingCta } from "~/components/marketing/ClosingCta";
import { PageIntro } from "~/components/ui/PageIntro";
import { caseStudies } from "~/content/case-studies";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Selected work",
    description: "Case studies of conversion-focused websites designed and built for founders and growing companies.",
    path: "/work",
  });

export default function Work() {
  return (
    <>
      <PageIntro eyebrow="Case studies" title="Selected work">
        <p>
          Every project starts with a business problem, not a mood board. Here is what four of them needed, what we
          built, and what changed after launch.
        </p>
      </PageIntro>
      <div className="container-page space-y-24">
        {caseStudies.map((study, i) => (
          <article
            key={study.id}
            aria-labelledby={`study-${study.id}`}
            className="grid gap-10 lg:grid-cols-[0.9fr_1.1fr] lg:items-start"
          >
            <CaseStudyArt study={study} index={i + 1} />
            <div>
              <CaseStudyMeta study={study} />
              <h2 id={`study-${study.id}`} className="mt-5 text-4xl leading-tight">
                <Link to={`/work/${study.id}`} className="hover:text-accent">
                  {study.title}
                </Link>
              </h2>
              <div className="mt-8">
                <CaseStudyBody study={study} />
              </div>
            </div>
          </article>
        ))}
      </div>
      <ClosingCta
        title="Your project could be next."
        text="Pick a package or book a free consultation to talk it through."
      />
    </>
  );
}
