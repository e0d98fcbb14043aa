import type { LoaderFunctionArgs } from "@remix-run/node";
import { ICS_FILENAME } from "../../server/booking/call.server";
import { readDraft } from "../../server/http/draft-cookie.server";
import { successCallFile } from "../../server/booking/success.server";
import { db } from "../../server/db.server";

/**
 * GET /booking/success.ics ("Add to calendar" on /booking/success): the visitor's call as an
 * .ics, for that visitor only; 404 with the sentence that says why otherwise.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const file = await successCallFile(db(), await readDraft(db(), request));
  const headers = { "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" };
  if ("missing" in file)
    return new Response(file.missing, {
      status: 404,
      headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(file.ics, {
    headers: {
      ...headers,
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ICS_FILENAME}"`,
    },
  });
}
