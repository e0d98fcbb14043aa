import { Form, Link, useNavigate } from "@remix-run/react";
import { Loader2 } from "lucide-react";
import { useState } from "react";
import { formatDollars } from "#domain/money";
import { trpc } from "~/trpc/react";

const ALREADY_OWNED = "You already own this template! Check your dashboard to download it.";

/** Purchase: signed out opens sign-in; signed in creates a Stripe Checkout Session and goes there. */
export function PurchaseButton({
  templateId,
  signedIn,
  signInHref,
  onSignIn,
  label = "Purchase",
  serverError,
}: {
  templateId: string;
  signedIn: boolean;
  signInHref: string;
  onSignIn: () => void;
  label?: string;
  serverError?: string;
}) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(serverError ?? null);
  const checkout = trpc.checkout.create.useMutation({
    onSuccess(data) {
      if (!data.url) {
        setError("No checkout URL returned");
        return;
      }
      window.location.assign(data.url);
    },
    onError(err) {
      if (err.data?.code === "CONFLICT") {
        window.alert(ALREADY_OWNED);
        navigate("/dashboard");
        return;
      }
      setError(err.message || "Failed to start checkout. Please try again.");
    },
  });
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
        e.preventDefault();
        setError(null);
        checkout.mutate({ templateId });
      }}
    >
      <input type="hidden" name="intent" value="purchase" />
      <button
        type="submit"
        className="btn-shop w-full py-3 text-base"
        disabled={checkout.isPending}
        aria-busy={checkout.isPending}
      >
        {checkout.isPending ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
        {checkout.isPending ? "Redirecting to checkout..." : label}
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
  templateId,
  purchase,
}: {
  templateId: string;
  purchase: { createdAt: string; amountPaid: number; downloadCount: number };
}) {
  const [count, setCount] = useState(purchase.downloadCount);
  const download = trpc.downloads.create.useMutation({
    onSuccess(data) {
      setCount(data.downloadCount);
      window.open(data.url, "_blank", "noopener");
    },
    onError() {
      window.alert("Failed to download template. Please contact support.");
    },
  });
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
      <Form
        method="post"
        className="mt-5"
        onSubmit={(e) => {
          e.preventDefault();
          download.mutate({ templateId });
        }}
      >
        <input type="hidden" name="intent" value="download" />
        <button type="submit" className="btn-shop" disabled={download.isPending}>
          {download.isPending ? "Preparing..." : "Download files"}
        </button>
      </Form>
    </div>
  );
}
