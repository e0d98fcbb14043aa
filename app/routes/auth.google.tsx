import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { auth } from "../../server/auth/auth.server";
import { rememberRedirect } from "../../server/http/session.server";
import { log } from "../../server/log.server";

export async function loader() {
  return redirect("/templates?signin=required");
}

/** Starts Google sign-in (offline access, consent prompt, state kept in the session). */
export async function action({ request }: ActionFunctionArgs) {
  const kit = auth();
  if (!kit.googleConfigured) return redirect("/templates?signin=required&error=google_not_configured");
  const form = await request.formData();
  const redirectTo = form.get("redirectTo");
  const cookie = await rememberRedirect(
    request,
    typeof redirectTo === "string" && redirectTo ? redirectTo : "/dashboard",
  );
  const forwarded = new Request(request.url, {
    method: "GET",
    headers: { Cookie: request.headers.get("Cookie") ?? "" },
  });
  try {
    await kit.authenticator.authenticate("google", forwarded);
  } catch (thrown) {
    if (thrown instanceof Response) {
      const headers = new Headers(thrown.headers);
      headers.append("Set-Cookie", cookie);
      return new Response(null, { status: thrown.status, headers });
    }
    log.error({ err: thrown }, "[auth] Google redirect failed");
    return redirect("/templates?signin=required&error=google_failed");
  }
  return redirect("/templates?signin=required&error=google_failed");
}
