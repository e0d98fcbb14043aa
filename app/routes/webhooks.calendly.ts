import type { ActionFunctionArgs } from "@remix-run/node";
import { handleCalendlyWebhook } from "../../server/http/calendly-webhook.server";
import { db } from "../../server/db.server";

export async function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}

/** Calendly's signed `invitee.created` / `invitee.canceled` (decision 014). */
export async function action({ request }: ActionFunctionArgs) {
  return handleCalendlyWebhook(db(), request);
}
