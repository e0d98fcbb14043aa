import { getFormProps } from "@conform-to/react";
import { dollarsToCents, formatDollars } from "#domain/money";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { recordPaymentSchema } from "#domain/console-forms";
import { Select, TextInput } from "../form/fields";
import { useConsoleForm } from "../form/use-console-form";
import { PaymentTarget } from "../payment-plan/PaymentTarget";
import type { AdminBooking } from "../types";

/**
 * Record payment: money that came by transfer, cash or other means, toward a stage of the plan
 * (the first unpaid one unless chosen). The amount is checked as the server checks it: dollars
 * and cents, at most what the booking has left to pay.
 */
export function RecordPaymentDialog(props: DialogProps) {
  return (
    <Modal title="Record Payment" onClose={props.onClose}>
      <RecordPaymentForm {...props} />
    </Modal>
  );
}

type DialogProps = { booking: AdminBooking; onRecorded: () => Promise<unknown>; onClose: () => void };

/** The dialog's form, inside it: conform's state lives and goes with the form's inputs. */
function RecordPaymentForm({ booking, onRecorded, onClose }: DialogProps) {
  const toast = useToast();
  const record = trpc.admin.bookings.recordPayment.useMutation({
    onSuccess: async () => {
      onClose();
      toast.success("Payment recorded");
      await onRecorded();
    },
  });
  const [form, fields] = useConsoleForm({
    id: `record-payment-${booking.id}`,
    schema: recordPaymentSchema(booking.totalAmount - booking.amountPaid),
    defaultValue: { amount: "", method: "bank", note: "" },
    onValid: (typed, { method, stageId }) =>
      record.mutate({
        id: booking.id,
        amount: typed.amount ?? "",
        method,
        stageId: stageId || undefined,
        note: typed.note?.trim() || undefined,
      }),
  });
  const cents = dollarsToCents(String(fields.amount.value ?? ""));
  return (
    <form {...getFormProps(form)}>
      <p className="text-sm text-ink-muted">
        {booking.companyName}: {formatDollars(booking.amountPaid, { decimals: 2 })} of{" "}
        {formatDollars(booking.totalAmount, { decimals: 2 })} paid.
      </p>
      <TextInput
        field={fields.amount}
        label="Amount (USD)"
        type="number"
        min="0.01"
        step="0.01"
        inputMode="decimal"
        required
        className="mt-4"
      />
      <PaymentTarget bookingId={booking.id} field={fields.stageId} />
      <div className="mt-4 grid gap-4">
        <Select
          field={fields.method}
          label="Paid by"
          options={[
            { value: "bank", label: "Bank transfer" },
            { value: "cash", label: "Cash" },
            { value: "other", label: "Other" },
          ]}
        />
        <TextInput
          field={fields.note}
          label={
            <>
              Note <span className="font-normal text-ink-muted">(optional)</span>
            </>
          }
          maxLength={500}
        />
      </div>
      {record.error ? (
        <p role="alert" className="field-error">
          Could not record the payment: {record.error.message}
        </p>
      ) : null}
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" className="btn-ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={!cents || cents <= 0 || record.isPending}>
          {record.isPending ? "Recording..." : "Record Payment"}
        </button>
      </div>
    </form>
  );
}
