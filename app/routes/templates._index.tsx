import type { MetaFunction } from "@remix-run/node";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "Website templates", description: "Production-ready website templates built with React, TypeScript and Tailwind CSS. One-time payment, lifetime access and updates.", path: "/templates" });

export default function Page() {
  return (
    <PageIntro eyebrow="Templates" title="Website templates">
      <p>Production-ready website templates built with React, TypeScript and Tailwind CSS. One-time payment, lifetime access and updates.</p>
    </PageIntro>
  );
}
