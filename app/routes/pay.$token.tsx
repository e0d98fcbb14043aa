// duplicates: a list of imports, the Remix names a route with a loader and an action uses
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CheckCircle2 } from "lucide-react";
import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import { pageTitle } from "~/lib/seo";
import { RouteNotFound } from "~/components/ui/ErrorBoundary";
import { checkoutForToken, payPage } from "../../server/payments/requests.server";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";
import { DomainError } from "../../server/errors";
import { httpStatusOf } from "../../server/http/domain-errors";
import { rateLimit, TooManyRequests } from "../../server/rate-limit.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data: page }) => [
  { title: pageTitle(matches, page ? `Payment: ${page.stageLabel}` : "Payment not found") },
  { name: "robots", content: "noindex" },
];

/** The page is a client's own (its link is the key): never stored by a cache, never sent to another site as a referrer. */
const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };

export const headers: HeadersFunction = () => PRIVATE;

/** GET /pay/<token>: what the studio asks for (issue 31); 404 for a token that names nothing. */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const page = await payPage(db(), env(), params.token ?? "");
  if (!page) throw data({ notFound: true }, { status: 404, headers: PRIVATE });
  const returned = new URL(request.url).searchParams.get("paid") === "1";
  return data({ ...page, returned, token: params.token ?? "" }, { headers: PRIVATE });
}

/** POST: "Pay" goes to Stripe Checkout (a fresh session when the last one expired). Works without JavaScript. */
export async function action({ params, context }: ActionFunctionArgs) {
  try {
    await rateLimit("checkout", `pay:${context.clientIp ?? ""}`);
    const url = await checkoutForToken(db(), env(), params.token ?? "");
    if (!url) throw data({ notFound: true }, { status: 404, headers: PRIVATE });
    return redirect(url, { headers: PRIVATE });
  } catch (error) {
    if (error instanceof TooManyRequests)
      return data(
        { error: error.message },
        { status: 429, headers: { ...PRIVATE, "Retry-After": String(error.retryAfterSeconds) } },
      );
    if (error instanceof DomainError)
      return data({ error: error.message }, { status: httpStatusOf(error), headers: PRIVATE });
    throw error;
  }
}

export default function PayPage() {
  const page = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const amount = formatMoney(page.amount);
  return (
    <section className="container-page flex min-h-[60vh] justify-center py-16 sm:py-24">
      <div className="card w-full max-w-md p-8 sm:p-10">
        <p className="eyebrow">{page.studioName}</p>
        <h1 className="mt-3 text-4xl">{page.stageLabel}</h1>
        <p className="mt-2 text-ink-muted">
          {page.project} for {page.company}
        </p>
        <dl className="mt-8 space-y-3 border-t border-line pt-6">
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-ink-muted">Amount</dt>
            <dd className="font-display text-3xl" data-testid="pay-amount">
              {amount}
            </dd>
          </div>
          {page.dueOn && !page.paidAt ? (
            <div className="flex items-baseline justify-between gap-4">
              <dt className="text-ink-muted">Due</dt>
              <dd>{formatCalendarDate(page.dueOn)}</dd>
            </div>
          ) : null}
        </dl>
        {page.paidAt ? (
          <p className="mt-8 flex items-center gap-2 font-semibold text-shop" role="status">
            <CheckCircle2 aria-hidden="true" className="h-5 w-5" />
            Paid on {formatCalendarDate(page.paidAt.slice(0, 10))}
          </p>
        ) : page.cancelled ? (
          <p className="mt-8 text-ink-muted" role="status">
            This project was cancelled, so nothing is due.
          </p>
        ) : page.returned ? (
          <p className="mt-8 text-ink-soft" role="status">
            Thank you! Stripe is confirming your payment. This page will say “Paid” once it has; you will also get a
            receipt by email.
          </p>
        ) : (
          <form method="post" className="mt-8">
            {posted && "error" in posted ? (
              <p className="mb-4 text-sm text-danger" role="alert">
                {posted.error}
              </p>
            ) : null}
            <button type="submit" className="btn-dark w-full py-3 text-base">
              Pay {amount}
            </button>
            <p className="mt-3 text-center text-sm text-ink-muted">
              Secure payment by card, Apple Pay or Google Pay through Stripe.
            </p>
          </form>
        )}
        {page.invoice ? (
          <p className="mt-6 border-t border-line pt-4 text-sm text-ink-muted">
            Invoice {page.invoice.number}:{" "}
            <a
              className="font-semibold text-ink underline"
              href={`/pay/${page.token}/invoice.pdf`}
              data-testid="invoice-pdf"
            >
              download (PDF)
            </a>
            {page.invoice.paid ? (
              <>
                {" · "}
                <a
                  className="font-semibold text-ink underline"
                  href={`/pay/${page.token}/receipt.pdf`}
                  data-testid="receipt-pdf"
                >
                  receipt (PDF)
                </a>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteNotFound
      title="Payment not found"
      text="This payment link does not exist. Please use the link in the studio’s latest email, or reply to it."
      to="/"
      action="Back to the home page"
    />
  );
}
