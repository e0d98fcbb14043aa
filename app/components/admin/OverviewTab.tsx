import { Link } from "@remix-run/react";
import { formatDollars } from "~/lib/money";
import { trpc } from "~/trpc/react";
import { shortDate, type AdminBooking, type AdminBookingPage, type AdminPurchasePage } from "./types";

/** What the overview lists: the newest purchases and the newest pending bookings (first page of each). */
export const OVERVIEW_PURCHASES = {};
export const OVERVIEW_BOOKINGS = { status: "pending" as const };

export function OverviewTab({
  initial,
}: {
  initial: { purchases?: AdminPurchasePage; bookings?: AdminBookingPage; upcoming?: AdminBooking[] };
}) {
  const purchases = trpc.admin.purchases.list.useQuery(OVERVIEW_PURCHASES, { initialData: initial.purchases });
  const bookings = trpc.admin.bookings.list.useQuery(OVERVIEW_BOOKINGS, { initialData: initial.bookings });
  const calls = trpc.admin.bookings.upcoming.useQuery(undefined, { initialData: initial.upcoming });
  const recent = (purchases.data?.rows ?? []).slice(0, 5);
  const pending = (bookings.data?.rows ?? []).slice(0, 5);
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <section className="card p-6 lg:col-span-2" aria-labelledby="upcoming-calls">
        <h2 id="upcoming-calls" className="text-2xl">
          Upcoming calls
        </h2>
        {calls.data?.length ? (
          <ul className="mt-4 divide-y divide-line">
            {calls.data.map((b) => (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <span>
                  <span className="block font-medium">{b.call?.studioTime}</span>
                  <span className="text-ink-muted">
                    {b.companyName} · {b.fullName}
                  </span>
                </span>
                <span className="flex items-center gap-3">
                  {b.call?.joinUrl ? (
                    <a
                      href={b.call.joinUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="font-semibold text-ink hover:underline"
                    >
                      Join
                    </a>
                  ) : null}
                  <Link
                    to={`/admin?tab=bookings&booking=${b.id}`}
                    className="font-semibold text-accent-ink hover:underline"
                  >
                    View
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-ink-muted">No calls booked ahead.</p>
        )}
      </section>
      <section className="card p-6" aria-labelledby="recent-purchases">
        <h2 id="recent-purchases" className="text-2xl">
          Recent purchases
        </h2>
        {recent.length ? (
          <ul className="mt-4 divide-y divide-line">
            {recent.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-3 py-3 text-sm">
                <span>
                  <span className="block font-medium">{p.templateName}</span>
                  <span className="text-ink-muted">
                    {p.email} · {shortDate(p.createdAt)}
                  </span>
                </span>
                <span className="flex items-center gap-3">
                  {formatDollars(p.amountPaid, { decimals: 2 })}
                  <Link to="/admin?tab=purchases" className="font-semibold text-accent-ink hover:underline">
                    View
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-ink-muted">No purchases yet.</p>
        )}
      </section>
      <section className="card p-6" aria-labelledby="pending-bookings">
        <h2 id="pending-bookings" className="text-2xl">
          Pending bookings
        </h2>
        {pending.length ? (
          <ul className="mt-4 divide-y divide-line">
            {pending.map((b) => (
              <li key={b.id} className="flex items-center justify-between gap-3 py-3 text-sm">
                <span>
                  <span className="block font-medium">{b.companyName}</span>
                  <span className="text-ink-muted">
                    {b.fullName} · {shortDate(b.createdAt)}
                  </span>
                </span>
                <Link
                  to={`/admin?tab=bookings&booking=${b.id}`}
                  className="font-semibold text-accent-ink hover:underline"
                >
                  View
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-ink-muted">No pending bookings.</p>
        )}
      </section>
    </div>
  );
}
