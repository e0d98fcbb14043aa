import { Modal } from "~/components/ui/Modal";
import { PaymentPlan } from "../payment-plan/PaymentPlan";
import { ProposalCard } from "../proposals/ProposalCard";
import type { AdminBooking } from "../types";
import { BookingFiles } from "./BookingFiles";
import { BookingSummary } from "./BookingSummary";
import { CallActions } from "./CallActions";

/** "View details": the booking's summary, its payment plan, its files, and Mark as Contacted. */
export function BookingDetails({
  booking,
  onContacted,
  onClose,
}: {
  booking: AdminBooking;
  onContacted: () => void;
  onClose: () => void;
}) {
  return (
    <Modal title={booking.companyName} onClose={onClose} wide>
      <BookingSummary booking={booking} />
      <CallActions key={booking.id} booking={booking} />
      <div className="mt-4">
        <ProposalCard key={booking.id} bookingId={booking.id} />
      </div>
      <div className="mt-4">
        <PaymentPlan key={booking.id} bookingId={booking.id} clientName={booking.fullName} />
      </div>
      <h3 className="mt-6 font-sans text-sm font-semibold">Uploaded files</h3>
      <div className="mt-2">
        <BookingFiles key={booking.id} booking={booking} />
      </div>
      <div className="mt-6 flex justify-end">
        <button type="button" className="btn-dark" onClick={onContacted}>
          Mark as Contacted
        </button>
      </div>
    </Modal>
  );
}
