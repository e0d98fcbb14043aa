import { formatMoney } from "#domain/money";
import { parseAmount } from "#domain/payment-plan";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { refundSchema } from "#domain/console-forms";
import { useConsoleForm } from "./form/use-console-form";

/**
 * "Refund" (issue 31.5), for a template purchase or a booking payment made by card: the amount
 * (all that remains unless changed; never more, checked as the server checks it), confirmed,
 * then refunded through Stripe once. A template refunded in full loses its download, as the
 * dialog says.
 */
export function RefundDialog(props: RefundProps) {
  return (
    <Modal title="Refund payment" onClose={props.onClose}>
      <RefundForm {...props} />
    </Modal>
  );
}

type RefundProps = {
  paymentId: string;
  paid: number;
  refunded: number;
  /** What was paid for, as the owner reads it: "Atelier template for ada@…". */
  what: string;
  /** A template purchase: a full refund takes its download away. */
  template?: boolean;
  onClose: () => void;
};

/** The dialog's form, inside it: conform's state lives and goes with the form's inputs. */
function RefundForm({ paymentId, paid, refunded, what, template, onClose }: RefundProps) {
  const left = paid - refunded;
  const toast = useToast();
  const utils = trpc.useUtils();
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
    onError: (e) => refuse(e.message),
  });
  const [, fields, { refused, refuse, formProps }] = useConsoleForm({
    id: `refund-${paymentId}`,
    schema: refundSchema(left),
    defaultValue: { amount: (left / 100).toFixed(2).replace(/\.00$/, "") },
    onValid: ({ amount = "" }) => refund.mutate({ paymentId, amount }),
  });
  const parsed = parseAmount(String(fields.amount.value ?? ""), { left, leftLabel: "is left of this payment" });
  const full = "cents" in parsed && parsed.cents === left;
  const error = fields.amount.errors?.[0] ?? refused;
  return (
    <form {...formProps}>
      <p>
        {what}: {formatMoney(paid)} paid
        {refunded ? `, ${formatMoney(refunded)} refunded already` : ""}.
      </p>
      <label htmlFor={fields.amount.id} className="field-label mt-4">
        Amount to refund (USD)
      </label>
      <input
        id={fields.amount.id}
        name={fields.amount.name}
        defaultValue={String(fields.amount.initialValue ?? "")}
        className="field-input"
        inputMode="decimal"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `refund-hint ${fields.amount.errorId}` : "refund-hint"}
      />
      <p id="refund-hint" className="mt-1 text-xs text-ink-muted">
        Up to {formatMoney(left)}. The money goes back to the card through Stripe
        {template && full ? "; a full refund also takes the template's download away." : "."}
      </p>
      {error ? (
        <p id={fields.amount.errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <ModalActions onCancel={onClose}>
        <button type="submit" className="btn-primary" disabled={refund.isPending} aria-busy={refund.isPending}>
          {refund.isPending ? "Refunding…" : "cents" in parsed ? `Refund ${formatMoney(parsed.cents)}` : "Refund"}
        </button>
      </ModalActions>
    </form>
  );
}
