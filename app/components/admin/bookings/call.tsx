import type { ReactNode } from "react";
import type { AdminBooking } from "../types";

const CALL_STATUS: Record<string, string> = {
  scheduled: "Scheduled",
  cancelled: "Cancelled in the calendar",
  rescheduled: "Being moved in the calendar",
};

/** The call in the bookings table: its time in the studio's zone, or why there is none. */
export function CallCell({ booking: b }: { booking: AdminBooking }) {
  if (b.call) {
    return (
      <span className={b.call.status === "scheduled" ? "" : "text-ink-muted line-through"} title={b.call.studioTime}>
        {b.call.studioShort}
        {b.call.status !== "scheduled" ? <span className="sr-only"> ({CALL_STATUS[b.call.status]})</span> : null}
      </span>
    );
  }
  return <span className="text-ink-muted">{b.callPending ? "Confirming..." : "Not booked"}</span>;
}

/** The call in the booking's details: when, its state, the visitor's zone and the calendar's links. */
export function callRows(b: AdminBooking): [string, ReactNode][] {
  if (!b.call)
    return [
      [
        "When",
        b.callPending
          ? "Booked in the calendar; the time is being confirmed with Calendly."
          : "Not booked in the calendar yet.",
      ],
    ];
  const link = (href: string | null, label: string) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className="link-underline">
        {label}
      </a>
    ) : (
      ""
    );
  return [
    ["When", b.call.studioTime],
    ["Status", CALL_STATUS[b.call.status] ?? b.call.status],
    ["Visitor's zone", b.call.visitorZone],
    ["Join", link(b.call.joinUrl, "Join link")],
    [
      "Calendar",
      b.call.rescheduleUrl || b.call.cancelUrl ? (
        <span key="cal" className="flex gap-3">
          {link(b.call.rescheduleUrl, "Reschedule")}
          {link(b.call.cancelUrl, "Cancel")}
        </span>
      ) : (
        ""
      ),
    ],
  ];
}
