import type { Authenticator } from "remix-auth";
import { env } from "../env.server";
import { auth, linkSenderWith, type AuthUser } from "./auth.server";
import { issueMagicNonce } from "./magic-link.server";
import { normalizeEmail } from "./users.server";
import { log } from "../log.server";

/**
 * Mails a sign-in link to `email` (already normalised), leading to `redirectTo` once used. Throws
 * TooManyRequests past the per-address and per-client limits (magic-link.server.ts). The form's
 * edge is server/http/sign-in.server.ts.
 */
export async function sendMagicLink(
  email: string,
  opts: { clientKey: string; redirectTo: string | null },
): Promise<void> {
  const kit = auth();
  const nonce = await issueMagicNonce(kit.db, { email, clientKey: opts.clientKey, redirectTo: opts.redirectTo });
  // Sent through the storage that keeps nothing: the strategy's session would belong to a
  // cookie no browser receives, so no session row is written for a sign-in request.
  await sendThrough(kit.linkSender, email, nonce);
}

/**
 * Runs the strategy's sending step (the link sealed, then handed to its sendEmail) for a nonce, on
 * a request of our own addressed to APP_URL: nothing of the visitor's request (its Host or
 * X-Forwarded-Host) reaches the strategy.
 */
async function sendThrough(sender: Authenticator<AuthUser>, email: string, nonce: string): Promise<void> {
  const appUrl = new URL(env().APP_URL);
  const internal = new Request(new URL("/auth/email", appUrl), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-Host": appUrl.host },
    body: new URLSearchParams({ email, nonce }),
  });
  try {
    await sender.authenticate("email-link", internal, { successRedirect: "/auth/email" });
  } catch (thrown) {
    // The strategy answers with a redirect once the link is handed over; anything else is an error.
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) return;
    throw thrown;
  }
}

/**
 * A sign-in link for an operator (`studio admin login-link EMAIL`): the link the site mails, with
 * the same guarantees (a single-use nonce in auth_tokens, 10 minutes, within the per-address
 * limits), returned instead of mailed. Leads to `redirectTo` once used. Throws TooManyRequests
 * past the limits.
 */
export async function createSignInLink(
  rawEmail: string,
  opts: { clientKey: string; redirectTo: string | null },
): Promise<string> {
  const email = normalizeEmail(rawEmail);
  const kit = auth();
  const nonce = await issueMagicNonce(kit.db, { email, clientKey: opts.clientKey, redirectTo: opts.redirectTo });
  let link: string | undefined;
  const capture = linkSenderWith(async ({ magicLink }) => {
    link = magicLink;
  });
  await sendThrough(capture, email, nonce);
  if (!link) throw new Error("The sign-in link was not made");
  return link;
}

/**
 * Consumes a magic link token (only on POST, so scanners that follow links cannot burn it).
 * Returns the user, or null when the token is invalid, expired or already used.
 */
export async function consumeMagicLink(token: string, appUrl: string) {
  const kit = auth();
  const url = new URL("/auth/callback", appUrl);
  url.searchParams.set("token", token);
  try {
    return await kit.authenticator.authenticate("email-link", new Request(url, { method: "GET" }));
  } catch (error) {
    if (!(error instanceof Response))
      log.warn(`[auth] magic link refused: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
