import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { OVERVIEW_BOOKINGS, OVERVIEW_PURCHASES, OverviewScreen } from "~/components/admin/OverviewScreen";
import { screenOfTab } from "~/lib/admin-lists";
import { requireAdmin } from "../../server/http/session.server";
import { shopContext } from "../../server/trpc/page-data.server";
import type { loader as consoleLoader } from "./admin";

/**
 * /admin: the Overview. An old address with `?tab=` (emails, bookmarks) goes to its screen's own,
 * once the visitor is known to be an admin.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const moved = screenOfTab(params);
  if (moved) throw redirect(moved);
  const { caller } = await shopContext(request, admin);
  const month = params.get("month");
  const [purchases, bookings, upcoming, money] = await Promise.all([
    caller.admin.purchases.list(OVERVIEW_PURCHASES),
    caller.admin.bookings.list(OVERVIEW_BOOKINGS),
    caller.admin.bookings.upcoming(),
    caller.admin.money.view(month && /^\d{4}-\d{2}$/.test(month) ? { month } : undefined),
  ]);
  return { purchases, bookings, upcoming, money };
}

export default function Overview() {
  const initial = useLoaderData<typeof loader>();
  // The backups and the mail, which the whole console reads for its banners.
  const layout = useRouteLoaderData<typeof consoleLoader>("routes/admin");
  return <OverviewScreen initial={{ ...initial, backups: layout?.backups, mail: layout?.mail }} />;
}
