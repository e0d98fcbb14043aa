import { getFormProps } from "@conform-to/react";
import { useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { deleteBookingSchema } from "#domain/console-forms";
import { useConsoleForm } from "../form/use-console-form";
import type { AdminBooking } from "../types";

/** Delete Booking: the booking and its uploaded files, once DELETE is typed. */
export function DeleteBookingDialog(props: DialogProps) {
  return (
    <Modal title="Delete Booking" onClose={props.onClose}>
      <DeleteBookingForm {...props} />
    </Modal>
  );
}

type DialogProps = { booking: AdminBooking; onDeleted: () => Promise<unknown>; onClose: () => void };

/** The dialog's form, inside it: conform's state lives and goes with the form's inputs. */
function DeleteBookingForm({ booking, onDeleted, onClose }: DialogProps) {
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const del = trpc.admin.bookings.delete.useMutation({
    onSuccess: async () => {
      onClose();
      toast.success("Booking deleted");
      await onDeleted();
    },
    onError: (e) => setError(e.message || "Failed to delete booking."),
  });
  const [form, fields] = useConsoleForm({
    id: `delete-booking-${booking.id}`,
    schema: deleteBookingSchema,
    defaultValue: { confirm: "" },
    onValid: () => del.mutate({ id: booking.id }),
  });
  return (
    <form {...getFormProps(form)}>
      <p className="text-sm text-ink-soft">
        This deletes the booking of <strong>{booking.companyName}</strong> and its uploaded files. Type{" "}
        <strong>DELETE</strong> to confirm.
      </p>
      <label htmlFor={fields.confirm.id} className="sr-only">
        Type DELETE to confirm
      </label>
      <input
        id={fields.confirm.id}
        name={fields.confirm.name}
        defaultValue=""
        className="field-input mt-4"
        autoComplete="off"
      />
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" className="btn-ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="submit"
          className="btn bg-danger text-white hover:bg-danger/90"
          disabled={fields.confirm.value !== "DELETE" || del.isPending}
        >
          {del.isPending ? "Deleting..." : "Delete Booking"}
        </button>
      </div>
    </form>
  );
}
