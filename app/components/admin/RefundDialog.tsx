import { useState, type FormEvent } from "react";
import { formatMoney } from "#domain/money";
import { parseAmount } from "#domain/payment-plan";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";

/**
 * "Refund" (issue 31.5), for a template purchase or a booking payment made by card: the amount
 * (all that remains unless changed; never more), confirmed, then refunded through Stripe once.
 * A template refunded in full loses its download, as the dialog says.
 */
export function RefundDialog({
  paymentId,
  paid,
  refunded,
  what,
  template,
  onClose,
}: {
  paymentId: string;
  paid: number;
  refunded: number;
  /** What was paid for, as the owner reads it: "Atelier template for ada@…". */
  what: string;
  /** A template purchase: a full refund takes its download away. */
  template?: boolean;
  onClose: () => void;
}) {
  const left = paid - refunded;
  const toast = useToast();
  const utils = trpc.useUtils();
  const [amount, setAmount] = useState((left / 100).toFixed(2).replace(/\.00$/, ""));
  const [error, setError] = useState<string | null>(null);
  const refund = trpc.admin.money.refund.useMutation({
    onSuccess: async (r) => {
      toast.success(`Refunded ${formatMoney(r.refunded)}`);
      await Promise.all([
        utils.admin.purchases.list.invalidate(),
        utils.admin.bookings.plan.invalidate(),
        utils.admin.bookings.list.invalidate(),
        utils.admin.money.invalidate(),
        utils.admin.stats.invalidate(),
      ]);
      onClose();
    },
    onError: (e) => setError(e.message),
  });
  const parsed = parseAmount(amount, { left, leftLabel: "is left of this payment" });
  const full = "cents" in parsed && parsed.cents === left;
  function submit(e: FormEvent) {
    e.preventDefault();
    if ("error" in parsed) return setError(parsed.error);
    setError(null);
    refund.mutate({ paymentId, amount });
  }
  return (
    <Modal title="Refund payment" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p>
          {what}: {formatMoney(paid)} paid
          {refunded ? `, ${formatMoney(refunded)} refunded already` : ""}.
        </p>
        <label htmlFor="refund-amount" className="field-label mt-4">
          Amount to refund (USD)
        </label>
        <input
          id="refund-amount"
          className="field-input"
          inputMode="decimal"
          value={amount}
          aria-invalid={error ? true : undefined}
          aria-describedby="refund-hint"
          onChange={(e) => {
            setAmount(e.target.value);
            setError(null);
          }}
        />
        <p id="refund-hint" className="mt-1 text-xs text-ink-muted">
          Up to {formatMoney(left)}. The money goes back to the card through Stripe
          {template && full ? "; a full refund also takes the template's download away." : "."}
        </p>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <ModalActions onCancel={onClose}>
          <button type="submit" className="btn-primary" disabled={refund.isPending} aria-busy={refund.isPending}>
            {refund.isPending ? "Refunding…" : "cents" in parsed ? `Refund ${formatMoney(parsed.cents)}` : "Refund"}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}
