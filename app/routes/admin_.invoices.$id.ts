import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "../../server/db.server";
import { adminDocumentLoader } from "../../server/http/proposal-page.server";

/** GET /admin/invoices/<id>: an invoice as a PDF, `?receipt=1` its receipt once paid (issue 44.7). Admins only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return adminDocumentLoader(db(), request, "invoice", params.id ?? "");
}
