// duplicates: a list of imports, the Remix names a route with a loader and an action uses
import {
  data,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { BookingWizard } from "~/components/booking/BookingWizard";
import { seo } from "~/lib/seo";
import { handleBookingPost } from "../../server/http/booking-actions.server";
import { bookingStepView } from "../../server/http/booking-flow.server";
import { db } from "../../server/db.server";
import { currentStudio } from "../../server/studio/current.server";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Book a free consultation",
    description: "Tell us about your project in six short steps and book a free 20-minute discovery call.",
    path: "/booking",
  });

/** A refusal's Retry-After (429) reaches document responses too. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const out = new Headers(loaderHeaders);
  const retry = actionHeaders.get("Retry-After");
  if (retry) out.set("Retry-After", retry);
  return out;
};

/** A time just taken by another visitor (409): the step's times are read again, without it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

export async function loader({ request }: LoaderFunctionArgs) {
  const studio = await currentStudio();
  return data(await bookingStepView(db(), request, studio), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleBookingPost(db(), request, context.clientIp ?? "");
}

export default function Booking() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return <BookingWizard view={view} result={result} />;
}
