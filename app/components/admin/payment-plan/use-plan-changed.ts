import { trpc } from "~/trpc/react";

/** After a change to a booking's plan: its plan, the bookings list and the stats are read again. */
export function usePlanChanged(bookingId: string) {
  const utils = trpc.useUtils();
  return async () => {
    await Promise.all([
      utils.admin.bookings.plan.invalidate({ id: bookingId }),
      utils.admin.bookings.list.invalidate(),
      utils.admin.stats.invalidate(),
    ]);
  };
}
