import type { LoaderFunctionArgs } from "@remix-run/node";
import { bookingsCsv, purchasesCsv } from "../../server/admin/export.server";
import { requireAdminOr } from "../../server/auth/guards.server";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";
import { bookingListInput, purchaseListInput } from "~/lib/admin-lists";

/**
 * GET /admin/export/bookings.csv and /admin/export/purchases.csv: every row of the console view
 * given by the query (`q`, `status`; not paged), streamed as CSV. Admins only.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const text = (status: number, body: string) =>
    new Response(body, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  await requireAdminOr(request, (refusal, status) =>
    text(status, refusal === "signed-out" ? "Sign in as an admin to export." : "Admin access required to export."),
  );
  const file = params.file;
  if (file !== "bookings.csv" && file !== "purchases.csv") return text(404, "Nothing to export here.");
  const query = new URL(request.url).searchParams;
  const { page: _page, ...view } = file === "bookings.csv" ? bookingListInput(query) : purchaseListInput(query);
  const body = file === "bookings.csv" ? bookingsCsv(db(), env(), view) : purchasesCsv(db(), view);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.replace(".csv", "")}-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
