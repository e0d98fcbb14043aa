import { Form, Link, useFetcher, useNavigate } from "@remix-run/react";
import { Loader2 } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { formatDollars } from "#domain/money";
import type { PurchaseReply } from "./purchase-reply";

/**
 * The form's post through a fetcher, asking the route's action for JSON (`reply=json`) instead of
 * the redirect a browser without JavaScript follows.
 */
function submitForJson(fetcher: ReturnType<typeof useFetcher<PurchaseReply>>, e: FormEvent<HTMLFormElement>) {
  e.preventDefault();
  const form = new FormData(e.currentTarget);
  form.set("reply", "json");
  fetcher.submit(form, { method: "post" });
}

const ALREADY_OWNED = "You already own this template! Check your dashboard to download it.";

/** Purchase: signed out opens sign-in; signed in creates a Stripe Checkout Session and goes there. */
export function PurchaseButton({
  signedIn,
  signInHref,
  onSignIn,
  label = "Purchase",
  serverError,
}: {
  signedIn: boolean;
  signInHref: string;
  onSignIn: () => void;
  label?: string;
  serverError?: string;
}) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(serverError ?? null);
  const checkout = useFetcher<PurchaseReply>();
  const reply = checkout.data;
  const handled = useRef<unknown>(null);
  useEffect(() => {
    // Each reply once, as soon as it arrives (not after the page's data is read again).
    if (!reply || handled.current === reply) return;
    handled.current = reply;
    if ("checkoutUrl" in reply && reply.checkoutUrl) window.location.assign(reply.checkoutUrl);
    else if ("alreadyOwned" in reply) {
      window.alert(ALREADY_OWNED);
      navigate("/dashboard");
    } else if ("error" in reply) setError(reply.error || "Failed to start checkout. Please try again.");
  }, [reply, navigate]);
  // Busy from the click until the browser leaves for Stripe.
  const pending = checkout.state !== "idle" || Boolean(reply && "checkoutUrl" in reply);
  if (!signedIn) {
    return (
      <Link
        to={signInHref}
        preventScrollReset
        onClick={(e) => {
          e.preventDefault();
          onSignIn();
        }}
        className="btn-shop w-full py-3 text-base"
      >
        {label}
      </Link>
    );
  }
  return (
    <Form
      method="post"
      onSubmit={(e) => {
        setError(null);
        submitForJson(checkout, e);
      }}
    >
      <input type="hidden" name="intent" value="purchase" />
      <button type="submit" className="btn-shop w-full py-3 text-base" disabled={pending} aria-busy={pending}>
        {pending ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
        {pending ? "Redirecting to checkout..." : label}
      </button>
      {error ? (
        <p
          role="alert"
          className="mt-3 rounded-field border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          {error}
        </p>
      ) : null}
    </Form>
  );
}

export function OwnerBanner({
  purchase,
}: {
  purchase: { createdAt: string; amountPaid: number; downloadCount: number };
}) {
  const download = useFetcher<PurchaseReply>();
  const reply = download.data;
  const count = reply && "download" in reply && reply.download ? reply.download.downloadCount : purchase.downloadCount;
  const handled = useRef<unknown>(null);
  useEffect(() => {
    // Each reply once, as soon as it arrives (not after the page's data is read again).
    if (!reply || handled.current === reply) return;
    handled.current = reply;
    if ("download" in reply && reply.download) window.open(reply.download.url, "_blank", "noopener");
    else if ("error" in reply) window.alert("Failed to download template. Please contact support.");
  }, [reply]);
  return (
    <div className="rounded-card border border-shop/30 bg-shop-soft p-6" role="status">
      <p className="font-display text-2xl text-shop-ink">You own this template</p>
      <dl className="mt-4 grid grid-cols-3 gap-4 text-sm">
        <div>
          <dt className="text-ink-muted">Purchased</dt>
          <dd className="font-medium">
            {new Date(purchase.createdAt).toLocaleDateString("en-US", {
              year: "numeric",
              month: "long",
              day: "numeric",
              timeZone: "UTC",
            })}
          </dd>
        </div>
        <div>
          <dt className="text-ink-muted">Amount paid</dt>
          <dd className="font-medium">{formatDollars(purchase.amountPaid, { decimals: 2 })}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">Downloads</dt>
          <dd className="font-medium" data-testid="download-count">
            {count}
          </dd>
        </div>
      </dl>
      <Form method="post" className="mt-5" onSubmit={(e) => submitForJson(download, e)}>
        <input type="hidden" name="intent" value="download" />
        <button type="submit" className="btn-shop" disabled={download.state !== "idle"}>
          {download.state !== "idle" ? "Preparing..." : "Download files"}
        </button>
      </Form>
    </div>
  );
}
