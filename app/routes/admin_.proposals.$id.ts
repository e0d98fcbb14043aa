import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "../../server/db.server";
import { adminDocumentLoader } from "../../server/http/proposal-page.server";

/** GET /admin/proposals/<id>: a signed proposal's sealed PDF (issue 44.3). Admins only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return adminDocumentLoader(db(), request, "proposal", params.id ?? "");
}
