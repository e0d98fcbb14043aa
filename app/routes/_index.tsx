import type { MetaFunction } from "@remix-run/node";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "Conversion-focused websites at a fixed price", description: "Boutique digital design for founders and growing companies: fixed-price packages, delivered in 2-8 weeks, with no scope creep.", path: "/" });

export default function Page() {
  return (
    <PageIntro eyebrow="Studio Rowan" title="Conversion-focused websites at a fixed price">
      <p>Boutique digital design for founders and growing companies: fixed-price packages, delivered in 2-8 weeks, with no scope creep.</p>
    </PageIntro>
  );
}
