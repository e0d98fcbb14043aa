import type { LoaderFunctionArgs } from "@remix-run/node";
import { bookingsCsv, ledgerCsv, purchasesCsv } from "../../server/admin/export.server";
import { requireAdminOr } from "../../server/http/session.server";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";
import { bookingListInput, purchaseListInput } from "~/lib/admin-lists";

/** A console view's filter without its page: an export has every row. */
function withoutPage<T extends { page?: number }>(view: T): Omit<T, "page"> {
  const { page: _page, ...rest } = view;
  return rest;
}

/**
 * GET /admin/export/bookings.csv and /admin/export/purchases.csv: every row of the console view
 * given by the query (`q`, `status`; not paged), streamed as CSV; /admin/export/ledger.csv: every
 * payment and refund. Admins only.
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
  if (file !== "bookings.csv" && file !== "purchases.csv" && file !== "ledger.csv")
    return text(404, "Nothing to export here.");
  const query = new URL(request.url).searchParams;
  const body =
    file === "ledger.csv"
      ? ledgerCsv(db())
      : file === "bookings.csv"
        ? bookingsCsv(db(), env(), withoutPage(bookingListInput(query)))
        : purchasesCsv(db(), withoutPage(purchaseListInput(query)));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.replace(".csv", "")}-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
