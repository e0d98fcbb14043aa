import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";

type Out = inferRouterOutputs<AppRouter>;
export type AdminBooking = Out["admin"]["bookings"]["list"]["rows"][number];
export type AdminBookingPage = Out["admin"]["bookings"]["list"];
export type AdminTemplate = Out["admin"]["templates"]["list"][number];
export type AdminPurchase = Out["admin"]["purchases"]["list"]["rows"][number];
export type AdminPurchasePage = Out["admin"]["purchases"]["list"];
export type AdminProposal = Out["admin"]["proposals"]["forBooking"][number];
export type AdminInvoiceRow = Out["admin"]["proposals"]["invoices"][number];

export { BOOKING_STATUS_LABELS as STATUS_LABELS } from "#domain/booking-status";

export function shortDate(iso: string) {
  return new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}
export type AdminPlan = Out["admin"]["bookings"]["plan"];
export type AdminStage = AdminPlan["stages"][number];
export type AdminMoney = Out["admin"]["money"]["view"];
export type AdminBackups = Out["admin"]["backups"]["list"];
export type AdminMail = Out["admin"]["mail"]["status"];
