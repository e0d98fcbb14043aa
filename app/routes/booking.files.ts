import type { ActionFunctionArgs } from "@remix-run/node";
import { handleBookingFileUpload } from "../../server/http/booking-actions.server";
import { db } from "../../server/db.server";

/** POST /booking/files: one brand asset per request from the step-5 upload zone (JSON answer). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405 });
  return handleBookingFileUpload(db(), request, context.clientIp ?? "");
}

export async function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
