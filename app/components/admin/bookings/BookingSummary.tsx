import type { ReactNode } from "react";
import { goalLabel } from "#domain/booking-rules";
import { formatCalendarDate } from "#domain/dates";
import { formatDollars } from "#domain/money";
import { shortDate, type AdminBooking } from "../types";
import { callRows } from "./call";

const money = (cents: number) => formatDollars(cents, { decimals: 2 });

/** One labelled group of the details: a heading and its rows (empty values read "—"). */
function DetailGroup({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <section className="rounded-field border border-line p-4">
      <h3 className="font-sans text-sm font-semibold">{title}</h3>
      <dl className="mt-2 grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-x-4">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-muted">{label}</dt>
            <dd className="whitespace-pre-wrap break-words">{value === "" || value == null ? "—" : value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Where the visit came from: the first visit's utm fields and referrer, else the summary kept since before them. */
function sourceText(b: AdminBooking): string {
  const a = b.attribution;
  const parts = [
    a.utmSource ? `utm_source ${a.utmSource}` : "",
    a.utmMedium ? `utm_medium ${a.utmMedium}` : "",
    a.utmCampaign ? `utm_campaign ${a.utmCampaign}` : "",
    a.referrer ? `referrer ${a.referrer}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join("\n") : (b.source ?? "");
}

/** What was paid on the booking, newest last, with each payment's note. */
function PaymentHistory({ booking: b }: { booking: AdminBooking }) {
  return (
    <section className="rounded-field border border-line p-4">
      <h3 className="font-sans text-sm font-semibold">Payment history</h3>
      {b.paymentHistory.length ? (
        <ul className="mt-2 divide-y divide-line text-sm">
          {b.paymentHistory.map((p, i) => (
            <li key={`${p.date}-${i}`} className="flex flex-wrap justify-between gap-x-4 py-2">
              <span>
                {shortDate(p.date)}
                {p.note ? <span className="text-ink-muted"> · {p.note}</span> : null}
              </span>
              <span className="font-medium">{money(p.amount)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-ink-muted">No payments recorded yet.</p>
      )}
    </section>
  );
}

/** Everything the client told us, what it costs and what was paid. */
export function BookingSummary({ booking: b }: { booking: AdminBooking }) {
  // The names and prices the booking was made at, whatever Settings say today.
  const addOns = b.addons.map(
    (a) => `${a.name}${a.quantity > 1 ? ` × ${a.quantity}` : ""} (${formatDollars(a.price * a.quantity)})`,
  );
  const goals = b.projectGoals.map(goalLabel).join(", ");
  return (
    <div className="grid gap-4">
      <DetailGroup
        title="Contact"
        rows={[
          ["Name", b.fullName],
          [
            "Email",
            <a key="email" href={`mailto:${b.email}`} className="link-underline">
              {b.email}
            </a>,
          ],
          ["Phone", b.phone ?? ""],
          ["Company", b.companyName],
        ]}
      />
      <DetailGroup title="Call" rows={callRows(b)} />
      <DetailGroup
        title="Package and price"
        rows={[
          ["Package", `${b.packageName} Package (${money(b.packagePrice)})`],
          ["Add-ons", addOns.join("\n") || "None"],
          ["Discount", b.discountPercent ? `${b.discountPercent}% portfolio discount` : "None"],
          ["Total", money(b.totalAmount)],
          ["Paid", `${money(b.amountPaid)} of ${money(b.totalAmount)}`],
        ]}
      />
      <DetailGroup
        title="Project"
        rows={[
          ["Primary goal", goals],
          ["Target audience", b.targetAudience],
          ["Website", b.isNewSite ? "New site" : (b.websiteUrl ?? "")],
          ["Inspiration", b.inspirationUrls.join("\n")],
          ["Features and notes", b.projectDescription],
          [
            "Preferred start",
            `${formatCalendarDate(b.desiredStartDate ?? "")} · ${b.timelineUrgency === "rush" ? "Strict Deadline" : "Flexible"}`,
          ],
          ["Source", sourceText(b)],
        ]}
      />
      <PaymentHistory booking={b} />
    </div>
  );
}
