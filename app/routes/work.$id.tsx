import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageIntro } from "~/components/ui/PageIntro";
import { GeneralErrorBoundary } from "~/components/ui/ErrorBoundary";
import { caseStudies } from "~/content/case-studies";

export async function loader({ params }: LoaderFunctionArgs) {
  const study = caseStudies.find((c) => c.id === params.id);
  if (!study) throw Response.json({ back: "/work" }, { status: 404 });
  return { study };
}

export default function CaseStudy() {
  const { study } = useLoaderData<typeof loader>();
  return <PageIntro eyebrow={study.industry} title={study.title}><p>{study.challenge}</p></PageIntro>;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
