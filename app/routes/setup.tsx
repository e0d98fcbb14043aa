// duplicates: a list of imports, the Remix names a route with a loader and an action uses
import {
  data,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SetupForm, SetupLinkInvalid } from "~/components/setup/SetupCard";
import { parseSetup } from "#domain/setup-schema";
import { signInAndRedirect } from "../../server/http/session.server";
import { db } from "../../server/db.server";
import { rateLimit, TooManyRequests } from "../../server/rate-limit.server";
import { completeSetup, setupTokenState } from "../../server/admin/setup.server";

export const meta: MetaFunction = () => [
  { title: "Set up your studio | Studio Rowan" },
  { name: "robots", content: "noindex" },
];

/** The page holds a live token: never stored by a cache; a refusal's Retry-After reaches documents. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const out = new Headers(loaderHeaders);
  out.set("Cache-Control", "no-store");
  const retry = actionHeaders.get("Retry-After");
  if (retry) out.set("Retry-After", retry);
  return out;
};

const NO_STORE = { "Cache-Control": "no-store" };

/** A spent link answers 410, one never issued 404; neither shows the form. */
const deadLink = (state: "dead" | "unknown") =>
  data({ live: false as const }, { status: state === "dead" ? 410 : 404, headers: NO_STORE });

/** GET /setup?token=…: the first run's form while the token is live (decision 018). */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = await setupTokenState(db(), token);
  if (state !== "live") return deadLink(state);
  return data({ live: true as const, token }, { headers: NO_STORE });
}

/**
 * POST: the studio's name and the owner's email, checked with the form's schema; then, in one
 * transaction, the token is used, the owner made super admin and the name saved, and the owner is
 * signed in (a fresh session, no email) and sent to the console's Settings.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const submission = parseSetup(form);
  try {
    await rateLimit("setup", context.clientIp ?? "");
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error;
    return data(
      { live: true as const, reply: submission.reply({ formErrors: [error.message] }) },
      { status: 429, headers: { ...NO_STORE, "Retry-After": String(error.retryAfterSeconds) } },
    );
  }
  const token = form.get("token");
  const state = await setupTokenState(db(), typeof token === "string" ? token : "");
  if (state !== "live") return deadLink(state);
  if (submission.status !== "success")
    return data({ live: true as const, reply: submission.reply() }, { status: 400, headers: NO_STORE });
  const done = await completeSetup(db(), submission.value);
  if (!done) return deadLink("dead");
  return signInAndRedirect(request, done.userId, "/admin/settings");
}

export default function SetupPage() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const live = loaded.live && (!posted || posted.live);
  return (
    <section className="container-page flex min-h-[60vh] justify-center py-16 sm:py-24">
      <div className="w-full max-w-md">
        {live && loaded.live ? (
          <SetupForm token={loaded.token} lastResult={posted?.live ? posted.reply : undefined} />
        ) : (
          <SetupLinkInvalid />
        )}
      </div>
    </section>
  );
}
