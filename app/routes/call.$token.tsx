import {
  data,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { CalendarX2, CheckCircle2 } from "lucide-react";
import { pageTitle } from "~/lib/seo";
import { RouteNotFound } from "~/components/ui/ErrorBoundary";
import { CallPicker } from "~/components/booking/CallPicker";
import { callPage, callPageAction, type CallPageAction } from "../../server/http/call-page.server";
import { db } from "../../server/db.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) => [
  { title: pageTitle(matches, "Your call") },
  { name: "robots", content: "noindex" },
];

/** The client's own page (its link is the key): never stored by a cache, never sent on as a referrer. */
const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
export const headers: HeadersFunction = () => PRIVATE;

/** A time just taken by another visitor (409): the times are read again, without it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

/** GET /call/<token>: the call as it is now, and until the cut-off the times to move it to (issue 43.7). */
export async function loader({ params, request }: LoaderFunctionArgs) {
  return data(await callPage(db(), params.token ?? "", request), { headers: PRIVATE });
}

/** POST: move the call (`move` with a `slot`) or cancel it (`cancel`); works without JavaScript. */
export async function action({ params, request, context }: ActionFunctionArgs) {
  return callPageAction(db(), params.token ?? "", request, `call:${context.clientIp ?? ""}`);
}

const DONE: Record<string, string> = {
  moved: "Your call has moved. We have emailed you the new time with an updated invitation.",
  cancelled: "Your call is cancelled. We have emailed you to confirm.",
};

export default function CallPage() {
  const page = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as CallPageAction | undefined;
  const busy = useNavigation().state === "submitting";
  const cancelled = page.status !== "scheduled";
  return (
    <section className="container-page max-w-3xl pb-16 pt-12 sm:pt-16" aria-labelledby="call-page-title">
      <p className="eyebrow">{page.studioName}</p>
      <h1 id="call-page-title" className="mt-3 text-4xl sm:text-5xl">
        {cancelled ? "Your call is cancelled" : "Your call"}
      </h1>
      {page.done && DONE[page.done] ? (
        <p
          role="status"
          className="mt-6 flex items-start gap-2 rounded-field bg-accent-soft px-4 py-3 text-sm text-accent-ink"
        >
          <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" /> {DONE[page.done]}
        </p>
      ) : null}
      <dl className="card mt-8 divide-y divide-line">
        <div className="grid gap-1 px-5 py-4 sm:grid-cols-[8rem_1fr]">
          <dt className="text-sm text-ink-muted">When</dt>
          <dd className={cancelled ? "line-through" : "font-medium"}>{page.when}</dd>
        </div>
        {page.place && !cancelled ? (
          <div className="grid gap-1 px-5 py-4 sm:grid-cols-[8rem_1fr]">
            <dt className="text-sm text-ink-muted">Where</dt>
            <dd className="break-words">
              {page.joinUrl ? (
                <a href={page.joinUrl} className="link-underline">
                  {page.joinUrl}
                </a>
              ) : (
                page.place
              )}
            </dd>
          </div>
        ) : null}
      </dl>

      {posted?.error ? (
        <p
          role="alert"
          className="mt-6 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
        >
          {posted.error}
        </p>
      ) : null}

      {cancelled ? (
        <p className="mt-8">
          <Link to="/booking" className="btn-primary px-6">
            Book another time
          </Link>
        </p>
      ) : page.locked ? (
        <p className="mt-8 flex items-start gap-2 text-ink-soft">
          <CalendarX2 aria-hidden="true" className="mt-1 h-4 w-4 shrink-0" />
          {page.locked}
        </p>
      ) : page.picker ? (
        <>
          <Form method="post" preventScrollReset>
            <CallPicker
              picker={page.picker}
              error={posted?.slotError}
              path={page.path}
              title="Move it to another time"
              empty={`Please write to ${page.contactEmail} to find another time.`}
            />
            <div className="mt-6 flex justify-end">
              <button type="submit" name="intent" value="move" className="btn-primary px-6" disabled={busy}>
                Move my call
              </button>
            </div>
          </Form>
          <Form method="post" className="mt-10 border-t border-line pt-6">
            <h2 className="text-2xl">Can&apos;t make it at all?</h2>
            <p className="mt-2 text-sm text-ink-muted">Cancel the call; you can book another time whenever you like.</p>
            <button type="submit" name="intent" value="cancel" className="btn-ghost mt-4" disabled={busy}>
              Cancel my call
            </button>
          </Form>
        </>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteNotFound
      title="Call not found"
      text="This link is not valid. Please use the link in your latest email from us, or reply to it."
      to="/"
      action="Back to the home page"
    />
  );
}
