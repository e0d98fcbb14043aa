import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/lib/seo";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AUTH_FAILED_PATH, auth } from "../../server/auth/auth.server";
import { signInAndRedirect } from "../../server/http/session.server";
import { consumeMagicLink } from "../../server/auth/email-signin.server";
import { env } from "../../server/env.server";
import { log } from "../../server/log.server";

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Signing you in...") },
  { name: "robots", content: "noindex" },
];

/**
 * GET shows "Signing you in..." with a Continue button (auto-submitted with JavaScript) and
 * consumes nothing, so mail scanners cannot burn the link. Google's redirect (code + state)
 * is completed here too.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.has("error")) return redirect(AUTH_FAILED_PATH);
  if (url.searchParams.has("code") || url.searchParams.has("state")) {
    const kit = auth();
    if (!kit.googleConfigured) return redirect(AUTH_FAILED_PATH);
    try {
      const user = await kit.authenticator.authenticate("google", request);
      return signInAndRedirect(request, user.id, "");
    } catch (error) {
      if (error instanceof Response && error.status >= 300 && error.status < 400) throw error;
      log.warn(`[auth] Google sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
      return redirect(AUTH_FAILED_PATH);
    }
  }
  return { token: url.searchParams.get("token") ?? "" };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const token = form.get("token");
  if (typeof token !== "string" || !token) return redirect(AUTH_FAILED_PATH);
  const user = await consumeMagicLink(token, env().APP_URL);
  if (!user) return redirect(AUTH_FAILED_PATH);
  return signInAndRedirect(request, user.id, user.redirectTo ?? "");
}

export default function AuthCallback() {
  const { token } = useLoaderData<typeof loader>();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!token) return;
    let remembered = "";
    try {
      remembered = window.sessionStorage.getItem("auth_redirect") ?? "";
      window.sessionStorage.removeItem("auth_redirect");
    } catch {
      remembered = "";
    }
    const input = formRef.current?.elements.namedItem("redirectTo");
    if (remembered && input instanceof HTMLInputElement) input.value = remembered;
    formRef.current?.requestSubmit();
  }, [token]);

  return (
    <section className="container-page flex min-h-[55vh] flex-col items-center justify-center py-20 text-center">
      <p className="eyebrow">Account</p>
      <h1 className="mt-4 text-5xl">Signing you in...</h1>
      {token ? (
        <Form method="post" ref={formRef} className="mt-8">
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="redirectTo" defaultValue="" />
          <p className="mb-6 max-w-md text-ink-muted">If nothing happens in a moment, press Continue.</p>
          <button type="submit" name="intent" value="continue" className="btn-dark px-8 py-3">
            Continue
          </button>
        </Form>
      ) : (
        <div className="mt-6 max-w-md text-ink-muted">
          <p>This sign-in link is incomplete. Request a new one from the templates page.</p>
          <Link to="/templates?signin=required" className="btn-dark mt-8">
            Sign in
          </Link>
        </div>
      )}
    </section>
  );
}
