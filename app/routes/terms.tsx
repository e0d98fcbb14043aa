import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/ui/LegalPage";
import { seo } from "~/lib/seo";
import { currentStudio } from "../../server/studio/current.server";
import { legalPage } from "../../server/studio/studio.server";

export async function loader() {
  return legalPage(await currentStudio(), "terms");
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  seo(matches, { title: data?.title ?? "", description: data?.intro ?? "", path: "/terms" });

export default function Page() {
  return <LegalPage {...useLoaderData<typeof loader>()} />;
}
