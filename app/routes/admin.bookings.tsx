import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BookingsScreen } from "~/components/admin/bookings/BookingsScreen";
import { bookingListInput } from "~/lib/admin-lists";
import { consoleMeta } from "~/lib/seo";
import { requireAdmin } from "../../server/http/session.server";
import { shopContext } from "../../server/trpc/page-data.server";

export const meta = consoleMeta("Bookings · Admin");

/** /admin/bookings: the page of bookings the URL asks for (`q`, `status`, `page`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const { caller } = await shopContext(request, admin);
  return { bookings: await caller.admin.bookings.list(bookingListInput(new URL(request.url).searchParams)) };
}

export default function Bookings() {
  const { bookings } = useLoaderData<typeof loader>();
  return <BookingsScreen initial={bookings} />;
}
