import { useState } from "react";
import { formatMoney } from "#domain/money";
import { percentOf } from "#domain/payment-plan";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { RefundDialog } from "../RefundDialog";
import type { AdminPlan, AdminStage } from "../types";
import { METHOD_LABELS, shortDay, STATE_STYLES, stateText } from "./stage-text";
import { usePlanChanged } from "./use-plan-changed";

type Payment = AdminStage["payments"][number];

/** What was paid toward a stage: each payment with its method and date, what was refunded, and Refund for a card's. */
function StagePayments({ stage: s, onRefund }: { stage: AdminStage; onRefund: (payment: Payment) => void }) {
  if (!s.payments.length) return null;
  return (
    <ul className="mt-1 text-xs text-ink-muted">
      {s.payments.map((pay) => (
        <li key={pay.id} className="break-words">
          {formatMoney(pay.amount)} · {METHOD_LABELS[pay.method] ?? pay.method} · {shortDay(pay.occurredAt)}
          {pay.paymentIntent ? ` · ${pay.paymentIntent}` : ""}
          {pay.refunded ? <span className="text-danger"> · {formatMoney(pay.refunded)} refunded</span> : null}
          {pay.method === "card" && pay.refunded < pay.amount ? (
            <>
              {" · "}
              <button type="button" className="font-semibold text-accent-ink underline" onClick={() => onRefund(pay)}>
                Refund<span className="sr-only"> the {s.label} payment</span>
              </button>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** One stage of the plan: its amount, share and state, what was paid, and what can be done with it now. */
export function StageRow({
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
  const [refunding, setRefunding] = useState<Payment | null>(null);
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
        <StagePayments stage={s} onRefund={setRefunding} />
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
