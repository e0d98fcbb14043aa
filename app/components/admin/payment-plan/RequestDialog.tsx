import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import { Modal, ModalActions } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import type { AdminStage } from "../types";
import { usePlanChanged } from "./use-plan-changed";

/** The confirm step of "Request payment": what the client will receive, then one click sends it. */
export function RequestDialog({
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
