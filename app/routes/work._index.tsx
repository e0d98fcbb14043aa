import type { MetaFunction } from "@remix-run/node";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "Selected work", description: "Case studies of websites designed and built for founders and growing companies.", path: "/work" });

export default function Page() {
  return (
    <PageIntro eyebrow="Case studies" title="Selected work">
      <p>Case studies of websites designed and built for founders and growing companies.</p>
    </PageIntro>
  );
}
