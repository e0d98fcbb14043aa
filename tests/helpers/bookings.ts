/**
 * Many bookings at once, for the tests and the bench that need a busy studio's lists: `n` Growth
 * bookings of distinct clients (`b-00000`, `client0@example.com`, …), with `extra` columns for each.
 */
import type { Insertable } from "kysely";
import type { BookingsTable } from "../../server/db/schema";

export const BOOKING_STATUSES = ["pending", "contacted", "in_progress", "completed", "cancelled"] as const;

export function bookingRows(n: number, extra: (i: number) => Partial<Insertable<BookingsTable>> = () => ({})) {
  return Array.from({ length: n }, (_, i) => ({
    id: `b-${String(i).padStart(5, "0")}`,
    user_id: null,
    email: `client${i}@example.com`,
    full_name: `Client ${i}`,
    company_name: `Company ${i}`,
    phone: null,
    package_type: "growth" as const,
    package_price: 850000,
    total_amount: 850000,
    website_url: null,
    desired_start_date: "2027-01-01",
    source: null,
    ...extra(i),
  }));
}
