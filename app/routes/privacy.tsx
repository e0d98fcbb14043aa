import type { MetaFunction } from "@remix-run/node";
import { LegalPage } from "~/components/ui/LegalPage";
import { privacy } from "~/content/legal";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: privacy.title, description: privacy.intro, path: "/privacy" });

export default function Page() {
  return <LegalPage {...privacy} />;
}
