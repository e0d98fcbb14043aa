import { z } from "zod";
import { auth } from "../auth/auth.server";
import { rememberedRedirect } from "./session.server";
import { sendMagicLink } from "../auth/email-signin.server";
import { safeRedirectPath } from "../auth/redirect";
import { normalizeEmail } from "../auth/users.server";
import { log } from "../log.server";
import { TooManyRequests } from "../rate-limit.server";

/** The sign-in form's edge (POST /auth/email): what it posted, checked, and the answer's status. */

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
  // Production without a mail provider: no link is made, and the form does not claim one was sent.
  if (!auth().emailSignIn) return { ok: false, error: EMAIL_SIGNIN_UNAVAILABLE, status: 503 };
  try {
    await sendMagicLink(email, { clientKey, redirectTo });
    return { ok: true, email };
  } catch (error) {
    if (error instanceof TooManyRequests)
      return { ok: false, error: error.message, status: 429, retryAfter: error.retryAfterSeconds };
    log.error({ err: error }, "[auth] magic link failed");
    return { ok: false, error: "Failed to send magic link. Please try again.", status: 500 };
  }
}
