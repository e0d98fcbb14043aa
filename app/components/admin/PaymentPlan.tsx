import { useState, type FormEvent } from "react";
import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import { parseAmount, percentOf, STAGE_STATE_LABELS } from "#domain/payment-plan";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { RefundDialog } from "./RefundDialog";
import type { AdminPlan, AdminStage } from "./types";

const METHOD_LABELS: Record<string, string> = {
  card: "Card (Stripe)",
  bank: "Bank transfer",
  cash: "Cash",
  other: "Other",
};

const STATE_STYLES: Record<AdminStage["state"], string> = {
  planned: "bg-paper-sunk text-ink-soft",
  requested: "bg-accent-soft text-accent-ink",
  overdue: "bg-danger-soft text-danger",
  paid: "bg-shop-soft text-shop-ink",
};

const shortDay = (isoDate: string) =>
  new Date(`${isoDate.slice(0, 10)}T12:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });

/** What a stage's badge says: its state, and the date that matters for it. */
function stateText(s: AdminStage): string {
  if (s.state === "paid" && s.paidAt) return `Paid ${shortDay(s.paidAt)}`;
  if ((s.state === "requested" || s.state === "overdue") && s.dueOn)
    return `${STAGE_STATE_LABELS[s.state]} · due ${shortDay(s.dueOn)}`;
  return STAGE_STATE_LABELS[s.state];
}

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

function usePlanChanged(bookingId: string) {
  const utils = trpc.useUtils();
  return async () => {
    await Promise.all([
      utils.admin.bookings.plan.invalidate({ id: bookingId }),
      utils.admin.bookings.list.invalidate(),
      utils.admin.stats.invalidate(),
    ]);
  };
}

function StageRow({
  bookingId,
  plan,
  stage: s,
  onEdit,
  onRequest,
}: {
  bookingId: string;
  plan: AdminPlan;
  stage: AdminStage;
  onEdit: () => void;
  onRequest: () => void;
}) {
  const toast = useToast();
  const changed = usePlanChanged(bookingId);
  const remove = trpc.admin.bookings.removeStage.useMutation({
    onSuccess: async () => {
      toast.success(`${s.label} removed`);
      await changed();
    },
    onError: (e) => toast.error(e.message),
  });
  const [refunding, setRefunding] = useState<AdminStage["payments"][number] | null>(null);
  const remind = trpc.admin.bookings.sendReminder.useMutation({
    onSuccess: (r) => toast.success(`Reminder sent to ${r.to}`),
    onError: (e) => toast.error(e.message),
  });
  const open = s.state === "requested" || s.state === "overdue";
  return (
    <li className="grid gap-2 rounded-field bg-paper-raised p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="font-semibold">{s.label}</span>
          <span className="tabular-nums">{formatMoney(s.amount)}</span>
          <span className="text-sm text-ink-muted">{percentOf(s.amount, plan.total)}%</span>
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLES[s.state]}`}>
            {stateText(s)}
          </span>
        </p>
        {s.payments.length ? (
          <ul className="mt-1 text-xs text-ink-muted">
            {s.payments.map((pay) => (
              <li key={pay.id} className="break-words">
                {formatMoney(pay.amount)} · {METHOD_LABELS[pay.method] ?? pay.method} · {shortDay(pay.occurredAt)}
                {pay.paymentIntent ? ` · ${pay.paymentIntent}` : ""}
                {pay.refunded ? <span className="text-danger"> · {formatMoney(pay.refunded)} refunded</span> : null}
                {pay.method === "card" && pay.refunded < pay.amount ? (
                  <>
                    {" · "}
                    <button
                      type="button"
                      className="font-semibold text-accent-ink underline"
                      onClick={() => setRefunding(pay)}
                    >
                      Refund<span className="sr-only"> the {s.label} payment</span>
                    </button>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {refunding ? (
          <RefundDialog
            paymentId={refunding.id}
            paid={refunding.amount}
            refunded={refunding.refunded}
            what={`The ${s.label} payment`}
            onClose={() => setRefunding(null)}
          />
        ) : null}
        {open && s.payPath ? (
          <p className="mt-1 break-all text-xs text-ink-muted">
            Payment page:{" "}
            <a href={s.payPath} className="underline">
              {s.payPath}
            </a>
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        {s.editable ? (
          <>
            <button type="button" className="btn-ghost px-3 py-1.5" onClick={onEdit}>
              Edit<span className="sr-only"> {s.label}</span>
            </button>
            <button
              type="button"
              className="btn-ghost px-3 py-1.5 text-danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ id: bookingId, stageId: s.id })}
            >
              Remove<span className="sr-only"> {s.label}</span>
            </button>
          </>
        ) : null}
        {s.state === "planned" && !plan.cancelled ? (
          <button
            type="button"
            className="btn-primary px-3 py-1.5"
            disabled={!plan.cardPayments}
            title={plan.cardPayments ? undefined : "Card payments need Stripe: use Record payment instead"}
            onClick={onRequest}
          >
            Request payment<span className="sr-only"> for {s.label}</span>
          </button>
        ) : null}
        {open && !plan.cancelled ? (
          <button
            type="button"
            className="btn-ghost px-3 py-1.5"
            disabled={remind.isPending}
            onClick={() => remind.mutate({ id: bookingId, stageId: s.id })}
          >
            {remind.isPending ? "Sending…" : "Send reminder"}
            <span className="sr-only"> for {s.label}</span>
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** Editing a stage (name and amount), or adding one when no stage is given. */
function StageForm({
  bookingId,
  stage,
  total,
  onDone,
}: {
  bookingId: string;
  stage?: AdminStage;
  total: number;
  onDone: () => void;
}) {
  const toast = useToast();
  const changed = usePlanChanged(bookingId);
  const [label, setLabel] = useState(stage?.label ?? "");
  const [amount, setAmount] = useState(stage ? (stage.amount / 100).toFixed(2).replace(/\.00$/, "") : "");
  const [error, setError] = useState<string | null>(null);
  const done = async (message: string) => {
    toast.success(message);
    await changed();
    onDone();
  };
  const update = trpc.admin.bookings.updateStage.useMutation({
    onSuccess: () => done("Stage saved"),
    onError: (e) => setError(e.message),
  });
  const add = trpc.admin.bookings.addStage.useMutation({
    onSuccess: () => done("Stage added"),
    onError: (e) => setError(e.message),
  });
  const busy = update.isPending || add.isPending;
  const id = stage ? `stage-${stage.id}` : `stage-new-${bookingId}`;
  function submit(e: FormEvent) {
    e.preventDefault();
    // Checked here as on the server, so a bad amount is said before anything is sent.
    if (amount.trim()) {
      const parsed = parseAmount(amount);
      if ("error" in parsed) return setError(parsed.error);
    }
    if (!label.trim()) return setError("Give the stage a name");
    setError(null);
    if (stage) update.mutate({ id: bookingId, stageId: stage.id, label, amount });
    else add.mutate({ id: bookingId, label, amount: amount.trim() ? amount : undefined });
  }
  const cents = parseAmount(amount);
  return (
    <form onSubmit={submit} className="grid gap-3 rounded-field border border-line-strong p-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem]">
        <div>
          <label htmlFor={`${id}-label`} className="field-label">
            Stage name
          </label>
          <input
            id={`${id}-label`}
            className="field-input"
            value={label}
            maxLength={60}
            onChange={(e) => setLabel(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-amount`} className="field-label">
            Amount (USD)
          </label>
          <input
            id={`${id}-amount`}
            className="field-input"
            inputMode="decimal"
            value={amount}
            placeholder={stage ? undefined : "The rest of the total"}
            aria-describedby={`${id}-share`}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setAmount(e.target.value);
              setError(null);
            }}
          />
          <p id={`${id}-share`} className="mt-1 text-xs text-ink-muted">
            {"cents" in cents ? `${percentOf(cents.cents, total)}% of ${formatMoney(total)}` : " "}
          </p>
        </div>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-ghost px-3 py-1.5" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn-dark px-3 py-1.5" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : stage ? "Save stage" : "Add stage"}
        </button>
      </div>
    </form>
  );
}

/** The confirm step of "Request payment": what the client will receive, then one click sends it. */
function RequestDialog({
  bookingId,
  stage,
  clientName,
  onClose,
}: {
  bookingId: string;
  stage: AdminStage;
  clientName: string;
  onClose: () => void;
}) {
  const toast = useToast();
  const changed = usePlanChanged(bookingId);
  const request = trpc.admin.bookings.requestPayment.useMutation({
    onSuccess: async (r) => {
      toast.success(
        r.requested
          ? `Payment requested: ${clientName} was emailed a link, due ${formatCalendarDate(r.dueOn)}`
          : "This payment was already requested",
      );
      await changed();
      onClose();
    },
  });
  return (
    <Modal title="Request payment" onClose={onClose}>
      <p>
        Email {clientName} a request for the <strong>{stage.label}</strong> payment of{" "}
        <strong>{formatMoney(stage.amount)}</strong>, with a link to pay by card?
      </p>
      <p className="mt-2 text-sm text-ink-muted">
        It is due within the business days set in Settings → Payments; reminders go out on the due date and two days
        after, until it is paid. The amount cannot be changed once requested.
      </p>
      {request.error ? (
        <p className="field-error mt-3" role="alert">
          {request.error.message}
        </p>
      ) : null}
      <ModalActions onCancel={onClose}>
        <button
          type="button"
          className="btn-primary"
          disabled={request.isPending}
          aria-busy={request.isPending}
          onClick={() => request.mutate({ id: bookingId, stageId: stage.id })}
        >
          {request.isPending ? "Sending…" : "Send request"}
        </button>
      </ModalActions>
    </Modal>
  );
}

/** Record payment's "Toward" field: the stage a payment counts for (the first unpaid one unless chosen). */
export function PaymentTarget({
  bookingId,
  stageId,
  onStage,
}: {
  bookingId: string;
  stageId: string;
  onStage: (id: string) => void;
}) {
  const plan = trpc.admin.bookings.plan.useQuery({ id: bookingId });
  const unpaid = plan.data?.stages.filter((s) => s.state !== "paid") ?? [];
  if (!unpaid.length) return null;
  return (
    <>
      <label htmlFor="pay-stage" className="field-label mt-4">
        Toward
      </label>
      <select
        id="pay-stage"
        className="field-input"
        value={stageId || unpaid[0].id}
        onChange={(e) => onStage(e.target.value)}
      >
        {unpaid.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label} ({formatMoney(s.amount)})
          </option>
        ))}
      </select>
    </>
  );
}
