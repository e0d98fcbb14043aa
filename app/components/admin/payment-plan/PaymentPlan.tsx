import { useState } from "react";
import { formatMoney } from "#domain/money";
import { trpc } from "~/trpc/react";
import type { AdminStage } from "../types";
import { RequestDialog } from "./RequestDialog";
import { StageForm } from "./StageForm";
import { StageRow } from "./StageRow";

/**
 * A booking's payment plan in the console (issue 31): each stage with its amount, share and
 * state; editing, adding and removing stages until they are requested; "Request payment" (a
 * Stripe Checkout link emailed to the client) and "Send reminder"; whether the stages add up.
 */
export function PaymentPlan({ bookingId, clientName }: { bookingId: string; clientName: string }) {
  const plan = trpc.admin.bookings.plan.useQuery({ id: bookingId });
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [asking, setAsking] = useState<AdminStage | null>(null);

  if (plan.isPending)
    return (
      <p className="text-sm text-ink-muted" role="status">
        Loading the payment plan…
      </p>
    );
  if (plan.error)
    return (
      <p className="field-error" role="alert">
        Could not load the payment plan: {plan.error.message}
      </p>
    );
  const p = plan.data;
  return (
    <section aria-labelledby={`plan-${bookingId}`} className="rounded-field border border-line p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`plan-${bookingId}`} className="font-sans text-sm font-semibold">
          Payment plan
        </h3>
        <p className="text-sm text-ink-muted" data-testid="plan-summary">
          {formatMoney(p.paid)} of {formatMoney(p.total)} paid
          {p.left > 0 ? ` · ${formatMoney(p.left)} left` : " · paid in full"}
        </p>
      </div>
      {p.mismatch ? (
        <p className="mt-3 rounded-field bg-accent-soft px-3 py-2 text-sm text-accent-ink" role="status">
          {p.mismatch}
        </p>
      ) : null}
      {p.cancelled ? (
        <p className="mt-3 text-sm text-ink-muted">This booking is cancelled: no payment can be requested.</p>
      ) : null}
      {p.stages.length === 0 ? (
        <p className="mt-3 text-sm text-ink-muted">No stages yet. Add one to ask for a payment.</p>
      ) : (
        <ol className="mt-3 grid gap-3">
          {p.stages.map((s) =>
            editing === s.id ? (
              <li key={s.id}>
                <StageForm bookingId={bookingId} stage={s} total={p.total} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <StageRow
                key={s.id}
                bookingId={bookingId}
                plan={p}
                stage={s}
                onEdit={() => setEditing(s.id)}
                onRequest={() => setAsking(s)}
              />
            ),
          )}
        </ol>
      )}
      {adding ? (
        <div className="mt-3">
          <StageForm bookingId={bookingId} total={p.total} onDone={() => setAdding(false)} />
        </div>
      ) : (
        <button type="button" className="btn-ghost mt-3 px-3 py-1.5" onClick={() => setAdding(true)}>
          Add a stage
        </button>
      )}
      {!p.cardPayments ? (
        <p className="mt-3 text-sm text-ink-muted" data-testid="card-payments-off">
          Card payments need Stripe (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET). For a bank transfer or cash, use
          Record payment.
        </p>
      ) : null}
      {asking ? (
        <RequestDialog bookingId={bookingId} stage={asking} clientName={clientName} onClose={() => setAsking(null)} />
      ) : null}
    </section>
  );
}
