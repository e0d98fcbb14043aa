import type { MetaFunction } from "@remix-run/node";
import { LegalPage } from "~/components/ui/LegalPage";
import { terms } from "~/content/legal";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: terms.title, description: terms.intro, path: "/terms" });

export default function Page() {
  return <LegalPage {...terms} />;
}
