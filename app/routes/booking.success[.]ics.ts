import type { LoaderFunctionArgs } from "@remix-run/node";
import { readDraft } from "../../server/booking/draft.server";
import { successIcsResponse } from "../../server/booking/success.server";
import { db } from "../../server/db.server";

/** The visitor's call as an .ics ("Add to calendar" on /booking/success), for that visitor only. */
export async function loader({ request }: LoaderFunctionArgs) {
  return successIcsResponse(db(), await readDraft(db(), request));
}
