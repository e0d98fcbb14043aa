import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "../../server/db.server";
import { invoicePdfLoader } from "../../server/http/proposal-page.server";

/** GET /pay/<token>/receipt.pdf: the payment's receipt, once paid (issue 44.7). */
export async function loader({ params }: LoaderFunctionArgs) {
  return invoicePdfLoader(db(), params.token ?? "", "receipt");
}
