import type { ActionFunctionArgs } from "@remix-run/node";
import { db } from "../../server/db.server";
import { handleStripeWebhook } from "../../server/http/stripe-webhook.server";

export async function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: ActionFunctionArgs) {
  return handleStripeWebhook(db(), request);
}
