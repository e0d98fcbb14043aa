import { z } from "zod";
import type { Authenticator } from "remix-auth";
import { env } from "../env.server";
import { auth, linkSenderWith, rememberedRedirect, type AuthUser } from "./auth.server";
import { TooManyRequests } from "../rate-limit.server";
import { issueMagicNonce } from "./magic-link.server";
import { safeRedirectPath } from "./redirect";
import { normalizeEmail } from "./users.server";
import { log } from "../log.server";

export const signInEmailSchema = z.object({
  email: z
    .string({ required_error: "Email is required" })
    .trim()
    .min(1, "Email is required")
    .max(254)
    .email("Please enter a valid email"),
  redirectTo: z.string().max(500).optional(),
});

/** What the sign-in form says instead of "Check your email" when the site cannot send mail. */
export const EMAIL_SIGNIN_UNAVAILABLE = "Email sign-in is unavailable: this site cannot send email yet.";

export type MagicLinkResult =
  { ok: true; email: string } | { ok: false; error: string; status: number; retryAfter?: number };

/**
 * Sends a magic link. The answer is the same whether or not the address has an account;
 * the link is built from APP_URL and carries a single-use nonce.
 */
export async function requestMagicLink(request: Request, form: FormData, clientKey: string): Promise<MagicLinkResult> {
  const parsed = signInEmailSchema.safeParse({
    email: form.get("email") ?? "",
    redirectTo: typeof form.get("redirectTo") === "string" ? form.get("redirectTo") : undefined,
  });
  if (!parsed.success) {
    return { ok: false, error: parsed.error.issues[0]?.message ?? "Please enter a valid email", status: 400 };
  }
  const email = normalizeEmail(parsed.data.email);
  const remembered = parsed.data.redirectTo || (await rememberedRedirect(request));
  const redirectTo = remembered ? safeRedirectPath(remembered, "/dashboard") : null;
  const kit = auth();
  // Production without a mail provider: no link is made, and the form does not claim one was sent.
  if (!kit.emailSignIn) return { ok: false, error: EMAIL_SIGNIN_UNAVAILABLE, status: 503 };
  try {
    const nonce = await issueMagicNonce(kit.db, { email, clientKey, redirectTo });
    // Sent through the storage that keeps nothing: the strategy's session would belong to a
    // cookie no browser receives, so no session row is written for a sign-in request.
    await sendThrough(kit.linkSender, email, nonce);
    return { ok: true, email };
  } catch (error) {
    if (error instanceof TooManyRequests)
      return { ok: false, error: error.message, status: 429, retryAfter: error.retryAfterSeconds };
    log.error({ err: error }, "[auth] magic link failed");
    return { ok: false, error: "Failed to send magic link. Please try again.", status: 500 };
  }
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
