import { data, type ActionFunctionArgs, type HeadersFunction, type MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/lib/seo";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { SignInPanel } from "~/components/auth/SignInPanel";
import { requestMagicLink } from "../../server/http/sign-in.server";
import { auth } from "../../server/auth/auth.server";

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Sign in") },
  { name: "robots", content: "noindex" },
];

/** The action's Retry-After (429) reaches document responses too. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retry = actionHeaders.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

export async function loader() {
  return { googleConfigured: auth().googleConfigured, emailSignIn: auth().emailSignIn };
}

/** POST /auth/email: sends the magic link (works as a plain form post without JavaScript). */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const result = await requestMagicLink(request, form, context.clientIp ?? "");
  if (result.ok) return { ok: true as const, email: result.email, googleConfigured: auth().googleConfigured };
  const headers: Record<string, string> = {};
  if (result.retryAfter) headers["Retry-After"] = String(result.retryAfter);
  return data(
    {
      ok: false as const,
      error: result.error,
      email: String(form.get("email") ?? ""),
      googleConfigured: auth().googleConfigured,
    },
    { status: result.status, headers },
  );
}

export default function SignInPage() {
  const result = useActionData<typeof action>();
  const { googleConfigured, emailSignIn } = useLoaderData<typeof loader>();
  return (
    <section className="container-page flex justify-center py-20">
      <div className="w-full max-w-md">
        <SignInPanel result={result} googleConfigured={googleConfigured} emailSignIn={emailSignIn} />
        <p className="mt-6 text-center text-sm text-ink-muted">
          <Link to="/templates" className="link-underline">
            Back to templates
          </Link>
        </p>
      </div>
    </section>
  );
}
