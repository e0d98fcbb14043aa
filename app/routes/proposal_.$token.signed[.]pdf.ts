import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "../../server/db.server";
import { signedPdfLoader } from "../../server/http/proposal-page.server";

/** GET /proposal/<token>/signed.pdf: the signed, sealed agreement (issue 44.3). */
export async function loader({ params }: LoaderFunctionArgs) {
  return signedPdfLoader(db(), params.token ?? "");
}
