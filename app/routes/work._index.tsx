import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CaseStudyArt, CaseStudyBody, CaseStudyMeta } from "~/components/marketing/CaseStudyArticle";
import { ClosingCta } from "~/components/marketing/ClosingCta";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";
import { currentStudio } from "../../server/studio/current.server";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Selected work",
    description: "Case studies of conversion-focused websites designed and built for founders and growing companies.",
    path: "/work",
  });

export async function loader() {
  return { caseStudies: (await currentStudio()).caseStudies };
}

export default function Work() {
  const { caseStudies } = useLoaderData<typeof loader>();
  return (
    <>
      <PageIntro eyebrow="Case studies" title="Selected work">
        <p>
          Every project starts with a business problem, not a mood board.{" "}
          {caseStudies.length
            ? "Here is what some of them needed, what we built, and what changed after launch."
            : "Case studies are on their way: in the meantime, book a free consultation to see past work."}
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
