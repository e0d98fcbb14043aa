import type { MetaFunction } from "@remix-run/node";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "How we work", description: "A four-phase process with fixed prices, fast delivery and no scope creep.", path: "/process" });

export default function Page() {
  return (
    <PageIntro eyebrow="Process" title="How we work">
      <p>A four-phase process with fixed prices, fast delivery and no scope creep.</p>
    </PageIntro>
  );
}
