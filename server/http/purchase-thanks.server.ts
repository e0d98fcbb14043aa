import { siteCookie } from "./site-cookie.server";

/**
 * "Thanks — your files are ready", once: the success URL (back from Stripe Checkout, the purchase
 * confirmed) redirects to the template's own address with this short-lived signed cookie, and
 * that page shows the greeting and clears it, so a reload or a later visit shows the owned view
 * alone. Works the same without JavaScript.
 */
const thanksCookie = () => siteCookie("purchase_thanks", 10 * 60);

/** The Set-Cookie value that asks the next page of `templateId` to greet the buyer. */
export function rememberThanks(templateId: string): Promise<string> {
  return thanksCookie().serialize(templateId);
}

/** Whether to greet on this page of `templateId`, and the Set-Cookie value that clears the note. */
export async function takeThanks(request: Request, templateId: string): Promise<{ greet: boolean; clear?: string }> {
  const cookie = thanksCookie();
  const noted: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (noted === null || noted === undefined || noted === false) return { greet: false };
  return { greet: noted === templateId, clear: await cookie.serialize("", { maxAge: 0 }) };
}
