import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { PageIntro } from "~/components/ui/PageIntro";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "You're all set!", description: "Your consultation request has been received.", path: "/booking/success", noindex: true });

export default function BookingSuccess() {
  return (
    <>
      <PageIntro eyebrow="Booking confirmed" title="You're all set!">
        <p>Thanks for booking a free consultation. Here is what happens next.</p>
      </PageIntro>
      <div className="container-page">
        <Link to="/" className="btn-dark">Back to homepage</Link>
      </div>
    </>
  );
}
