import type { MetaFunction } from "@remix-run/node";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "Packages and pricing", description: "Three fixed-price website packages with optional add-ons and a transparent payment schedule.", path: "/packages" });

export default function Page() {
  return (
    <PageIntro eyebrow="Fixed prices" title="Packages and pricing">
      <p>Three fixed-price website packages with optional add-ons and a transparent payment schedule.</p>
    </PageIntro>
  );
}
