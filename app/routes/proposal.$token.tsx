import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CheckCircle2, Download, Info } from "lucide-react";
import { formatCalendarDate } from "#domain/dates";
import { formatDollars } from "#domain/money";
import { pageTitle } from "~/lib/seo";
import { RouteNotFound } from "~/components/ui/ErrorBoundary";
import { ProposalDocument } from "~/components/shop/ProposalDocument";
import { db } from "../../server/db.server";
import {
  PRIVATE,
  proposalAction,
  proposalLoader,
  type ProposalActionData,
} from "../../server/http/proposal-page.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data: page }) => [
  { title: pageTitle(matches, page ? `Proposal ${page.reference}` : "Proposal not found") },
  { name: "robots", content: "noindex" },
];

export const headers: HeadersFunction = () => PRIVATE;

/** Plain HTML: the page sends no script (issue 44.9: at most 20 KB), its forms post as they are. */
export const handle = { scripts: false };

/** GET /proposal/<token>: the proposal, its state, and while open the forms to sign or decline (issue 44.2). */
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  return proposalLoader(db(), params.token ?? "", request, context.clientIp as string | undefined);
}

/** POST: `sign` (typed name and consent) or `decline` (a reason). */
export async function action({ params, request, context }: ActionFunctionArgs) {
  return proposalAction(db(), params.token ?? "", request, context.clientIp as string | undefined);
}

const money = (cents: number) => formatDollars(cents, { decimals: 2 });
const day = (iso: string) => formatCalendarDate(iso.slice(0, 10));

function Banner({ tone, children }: { tone: "good" | "info"; children: React.ReactNode }) {
  const Icon = tone === "good" ? CheckCircle2 : Info;
  return (
    <div
      role="status"
      className={`flex items-start gap-3 rounded-field border p-4 ${tone === "good" ? "border-shop/40 bg-shop/5" : "border-line-strong bg-white"}`}
    >
      <Icon
        aria-hidden="true"
        className={`mt-0.5 h-5 w-5 shrink-0 ${tone === "good" ? "text-shop" : "text-ink-muted"}`}
      />
      <div className="space-y-2">{children}</div>
    </div>
  );
}

export default function ProposalPage() {
  const p = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>() as ProposalActionData | undefined;
  return (
    <article className="container-page max-w-3xl pb-20 pt-12 sm:pt-16" aria-labelledby="proposal-title">
      <p className="eyebrow">
        {p.studioName} · Proposal {p.reference}
      </p>
      <h1 id="proposal-title" className="mt-3 text-4xl leading-tight sm:text-5xl">
        {p.content.title}
      </h1>
      <p className="mt-3 text-ink-muted">
        For {p.content.client.name}
        {p.content.client.company ? `, ${p.content.client.company}` : ""} · {money(p.total)}
        {p.state === "open" ? ` · open until ${day(p.expiresOn)}` : ""}
      </p>

      <div className="mt-8 space-y-4">
        {p.state === "signed" ? (
          <Banner tone="good">
            <p className="font-semibold" data-testid="proposal-state">
              Signed on {day(p.signedAt ?? "")} by {p.signerName}
            </p>
            {p.countersignedAt ? (
              <p>
                Countersigned on {day(p.countersignedAt)} by {p.countersignerName}.
              </p>
            ) : null}
            {p.deposit ? (
              <p data-testid="deposit-state">
                {p.deposit.label}, {money(p.deposit.amount)}:{" "}
                {p.deposit.state === "paid" ? (
                  "paid. Thank you!"
                ) : p.deposit.payPath ? (
                  <>
                    due now.{" "}
                    <a className="font-semibold underline" href={p.deposit.payPath}>
                      Pay the {p.deposit.label.toLowerCase()}
                    </a>
                  </>
                ) : (
                  `${p.studioName} will send you the payment details.`
                )}
              </p>
            ) : null}
            {p.hasPdf ? (
              <p>
                <a
                  className="inline-flex items-center gap-2 font-semibold underline"
                  href={p.pdfPath}
                  data-testid="signed-pdf"
                >
                  <Download aria-hidden="true" className="h-4 w-4" /> Download the signed agreement (PDF)
                </a>
              </p>
            ) : null}
          </Banner>
        ) : p.state === "declined" ? (
          <Banner tone="info">
            <p className="font-semibold" data-testid="proposal-state">
              You declined this proposal on {day(p.declinedAt ?? "")}.
            </p>
            <p>
              {p.studioName} has been told. To talk it over, write to {p.contactEmail}.
            </p>
          </Banner>
        ) : p.state === "expired" ? (
          <Banner tone="info">
            <p className="font-semibold" data-testid="proposal-state">
              This proposal expired on {day(p.expiresOn)}.
            </p>
            <p>
              Ask {p.studioName} ({p.contactEmail}) to extend it or send a new one.
            </p>
          </Banner>
        ) : p.state === "replaced" ? (
          <Banner tone="info">
            <p className="font-semibold" data-testid="proposal-state">
              A newer version replaced this proposal.
            </p>
            {p.latestPath ? (
              <p>
                <a className="font-semibold underline" href={p.latestPath}>
                  Open the latest version
                </a>
              </p>
            ) : null}
          </Banner>
        ) : null}
        {posted?.error ? (
          <p className="rounded-field border border-danger/40 bg-danger/5 p-4 text-danger" role="alert">
            {posted.error}
          </p>
        ) : null}
      </div>

      <div className="mt-12">
        <ProposalDocument content={p.content} total={p.total} />
      </div>

      {p.state === "open" ? <SignForms posted={posted} consentText={p.consentText} /> : null}
    </article>
  );
}

/** "Accept and sign" and "Decline": plain forms posted to the page itself. */
function SignForms({ posted, consentText }: { posted?: ProposalActionData; consentText: string }) {
  return (
    <div className="mt-14 grid gap-10">
      <form method="post" className="card p-6 sm:p-8" aria-labelledby="sign-title" noValidate>
        <h2 id="sign-title" className="text-3xl">
          Accept and sign
        </h2>
        <p className="mt-2 text-ink-muted">Type your full name: it is your signature on this proposal and its terms.</p>
        <div className="mt-6">
          <label htmlFor="signer-name" className="field-label">
            Full name
          </label>
          <input
            id="signer-name"
            name="name"
            type="text"
            autoComplete="name"
            required
            minLength={2}
            maxLength={200}
            defaultValue={posted?.name ?? ""}
            className="field-input font-display text-xl"
            aria-invalid={posted?.nameError ? true : undefined}
            aria-describedby={posted?.nameError ? "signer-name-error" : undefined}
          />
          {posted?.nameError ? (
            <p id="signer-name-error" className="field-error" role="alert">
              {posted.nameError}
            </p>
          ) : null}
        </div>
        <div className="mt-5">
          <label htmlFor="consent" className="flex cursor-pointer items-start gap-3">
            <input
              id="consent"
              name="consent"
              type="checkbox"
              required
              className="mt-1 h-4 w-4 rounded border-line-strong text-accent focus:ring-accent"
              aria-invalid={posted?.consentError ? true : undefined}
              aria-describedby={posted?.consentError ? "consent-error" : undefined}
            />
            <span className="text-ink">{consentText}</span>
          </label>
          {posted?.consentError ? (
            <p id="consent-error" className="field-error ml-7" role="alert">
              {posted.consentError}
            </p>
          ) : null}
        </div>
        <button
          type="submit"
          name="intent"
          value="sign"
          className="btn-dark mt-6 w-full py-3 text-base sm:w-auto sm:px-8"
        >
          Accept and sign
        </button>
      </form>
      <details className="rounded-field border border-line p-6">
        <summary className="cursor-pointer font-semibold">Decline this proposal</summary>
        <form method="post" className="mt-4">
          <label htmlFor="decline-reason" className="field-label">
            Reason (optional, sent to the studio)
          </label>
          <textarea id="decline-reason" name="reason" rows={3} maxLength={2000} className="field-input" />
          <button type="submit" name="intent" value="decline" className="btn-ghost mt-4 text-danger">
            Decline
          </button>
        </form>
      </details>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteNotFound
      title="Proposal not found"
      text="This proposal link does not exist. Please use the link in the studio’s latest email, or reply to it."
      to="/"
      action="Back to the home page"
    />
  );
}
