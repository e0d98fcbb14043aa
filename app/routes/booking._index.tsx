import type { MetaFunction } from "@remix-run/node";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "Book a free consultation", description: "Tell us about your project in six short steps and pick a time for a free 20-minute discovery call.", path: "/booking" });

export default function Page() {
  return (
    <PageIntro eyebrow="Booking" title="Book a free consultation">
      <p>Tell us about your project in six short steps and pick a time for a free 20-minute discovery call.</p>
    </PageIntro>
  );
}
