/**
 * The console's list views as URL parameters (`page`, `q`, `status`), so a refresh or a shared
 * link shows the same view. Each console screen's loader and the screen itself derive the same tRPC
 * input from them, so the server-rendered page is the tRPC query's first data.
 */
import { isBookingStatus, type BookingStatus } from "#domain/booking-status";

export type PurchaseListInput = { page?: number; q?: string };
export type BookingListInput = PurchaseListInput & { status?: BookingStatus };

export function purchaseListInput(params: URLSearchParams): PurchaseListInput {
  const out: PurchaseListInput = {};
  const page = Number(params.get("page"));
  if (Number.isInteger(page) && page > 1 && page <= 100_000) out.page = page;
  const q = params.get("q")?.trim().slice(0, 200);
  if (q) out.q = q;
  return out;
}

export function bookingListInput(params: URLSearchParams): BookingListInput {
  const out: BookingListInput = purchaseListInput(params);
  const status = params.get("status");
  if (isBookingStatus(status)) out.status = status;
  return out;
}

/** The same view on another page (page 1 is written as no parameter). */
export function withPage(params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  next.delete("booking");
  if (page > 1) next.set("page", String(page));
  else next.delete("page");
  return `?${next}`;
}

/** The screens that had a `?tab=` on /admin before each had its own address. */
const TABS = ["templates", "bookings", "purchases"];

/**
 * Where an old console address goes: `/admin?tab=bookings&booking=…` (in emails and bookmarks) is
 * `/admin/bookings?booking=…` now, its other parameters kept; `?tab=overview` (or an unknown tab)
 * is the Overview at `/admin`. Null when the address has no `tab`.
 */
export function screenOfTab(params: URLSearchParams): string | null {
  const tab = params.get("tab");
  if (tab === null) return null;
  const rest = new URLSearchParams(params);
  rest.delete("tab");
  const path = TABS.includes(tab) ? `/admin/${tab}` : "/admin";
  return rest.size ? `${path}?${rest}` : path;
}
