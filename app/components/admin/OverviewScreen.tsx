import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDollars } from "#domain/money";
import { trpc } from "~/trpc/react";
import { BackupsCard } from "./BackupsCard";
import { MailCard } from "./MailCard";
import { MoneyCard } from "./MoneyCard";
import { InvoicesCard } from "./proposals/InvoicesCard";
import {
  shortDate,
  type AdminBooking,
  type AdminBookingPage,
  type AdminBackups,
  type AdminMail,
  type AdminMoney,
  type AdminPurchasePage,
} from "./types";

/** What the overview lists: the newest purchases and the newest pending bookings (first page of each). */
export const OVERVIEW_PURCHASES = {};
export const OVERVIEW_BOOKINGS = { status: "pending" as const };

/** The console's Overview (/admin): money, backups, mail, upcoming calls, recent purchases, pending bookings. */
export function OverviewScreen({
  initial,
}: {
  initial: {
    purchases?: AdminPurchasePage;
    bookings?: AdminBookingPage;
    upcoming?: AdminBooking[];
    money?: AdminMoney;
    backups?: AdminBackups;
    mail?: AdminMail;
  };
}) {
  const purchases = trpc.admin.purchases.list.useQuery(OVERVIEW_PURCHASES, { initialData: initial.purchases });
  const bookings = trpc.admin.bookings.list.useQuery(OVERVIEW_BOOKINGS, { initialData: initial.bookings });
  const calls = trpc.admin.bookings.upcoming.useQuery(undefined, { initialData: initial.upcoming });
  const recent = (purchases.data?.rows ?? []).slice(0, 5);
  const pending = (bookings.data?.rows ?? []).slice(0, 5);
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <MoneyCard initial={initial.money} />
      </div>
      <div className="lg:col-span-2">
        <InvoicesCard />
      </div>
      <div className="lg:col-span-2">
        <BackupsCard initial={initial.backups} />
      </div>
      <div className="lg:col-span-2">
        <MailCard initial={initial.mail} />
      </div>
      <ListCard id="upcoming-calls" title="Upcoming calls" empty="No calls booked ahead." wide>
        {calls.data?.map((b) => (
          <Row
            key={b.id}
            title={b.call?.studioTime}
            detail={`${b.companyName} · ${b.fullName}`}
            action={
              <>
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
                <ViewLink to={`/admin/bookings?booking=${b.id}`} />
              </>
            }
          />
        ))}
      </ListCard>
      <ListCard id="recent-purchases" title="Recent purchases" empty="No purchases yet.">
        {recent.map((p) => (
          <Row
            key={p.id}
            title={p.templateName}
            detail={`${p.email} · ${shortDate(p.createdAt)}`}
            action={
              <>
                {formatDollars(p.amountPaid, { decimals: 2 })}
                <ViewLink to="/admin/purchases" />
              </>
            }
          />
        ))}
      </ListCard>
      <ListCard id="pending-bookings" title="Pending bookings" empty="No pending bookings.">
        {pending.map((b) => (
          <Row
            key={b.id}
            title={b.companyName}
            detail={`${b.fullName} · ${shortDate(b.createdAt)}`}
            action={<ViewLink to={`/admin/bookings?booking=${b.id}`} />}
          />
        ))}
      </ListCard>
    </div>
  );
}

/** A card of the overview: its heading, then its rows or, without any, what is missing. */
function ListCard({
  id,
  title,
  empty,
  wide,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  wide?: boolean;
  children?: ReactNode[];
}) {
  return (
    <section className={`card p-6${wide ? " lg:col-span-2" : ""}`} aria-labelledby={id}>
      <h2 id={id} className="text-2xl">
        {title}
      </h2>
      {children?.length ? (
        <ul className="mt-4 divide-y divide-line">{children}</ul>
      ) : (
        <p className="mt-4 text-sm text-ink-muted">{empty}</p>
      )}
    </section>
  );
}

function Row({ title, detail, action }: { title: ReactNode; detail: string; action: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
      <span>
        <span className="block font-medium">{title}</span>
        <span className="text-ink-muted">{detail}</span>
      </span>
      <span className="flex items-center gap-3">{action}</span>
    </li>
  );
}

function ViewLink({ to }: { to: string }) {
  return (
    <Link to={to} className="font-semibold text-accent-ink hover:underline">
      View
    </Link>
  );
}
