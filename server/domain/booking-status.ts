/**
 * A booking's place in the studio's pipeline: the one list of statuses (the database's CHECK
 * constraint, the console's select and filter, the tRPC inputs and the CSV all follow it).
 */
export const BOOKING_STATUSES = ["pending", "contacted", "in_progress", "completed", "cancelled"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  pending: "Pending",
  contacted: "Contacted",
  in_progress: "In progress",
  completed: "Completed",
  cancelled: "Cancelled",
};

export function isBookingStatus(value: unknown): value is BookingStatus {
  return typeof value === "string" && (BOOKING_STATUSES as readonly string[]).includes(value);
}
