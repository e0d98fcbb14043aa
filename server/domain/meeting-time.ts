/**
 * The consultation call's time, shown in one named time zone: the visitor's (their booking page,
 * their emails) or the studio's (the console, the studio's emails). Pure and client-safe; the
 * times are UTC ISO strings as stored on the booking.
 */

/** Whether the runtime knows `zone` as an IANA time zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  // Every runtime knows UTC; asking Intl would load ICU's data at every start (issue 42.4).
  if (zone === "UTC") return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `zone` when the runtime knows it, otherwise UTC. */
export function safeTimeZone(zone: string | null | undefined): string {
  return zone && isTimeZone(zone) ? zone : "UTC";
}

export type CallTime = {
  /** "Tuesday, March 3, 2026" */
  date: string;
  /** "2:00 PM – 2:20 PM" (or only the start when the end is unknown) */
  time: string;
  /** The IANA name: "Europe/Berlin" */
  zone: string;
  /** The zone in words at that date: "Central European Standard Time" */
  zoneName: string;
  /** "Tuesday, March 3, 2026, 2:00 PM – 2:20 PM (Central European Standard Time, Europe/Berlin)" */
  full: string;
};

/** The call's date and time in `zone` (UTC when unknown), saying which zone it is. */
export function formatCallTime(
  startIso: string,
  endIso: string | null | undefined,
  zone: string | null | undefined,
): CallTime {
  const timeZone = safeTimeZone(zone);
  const start = new Date(startIso);
  const end = endIso ? new Date(endIso) : null;
  const date = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
  }).format(start);
  const clock = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit" });
  const time =
    end && !Number.isNaN(end.getTime()) ? `${clock.format(start)} – ${clock.format(end)}` : clock.format(start);
  const zoneName =
    new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "long" })
      .formatToParts(start)
      .find((p) => p.type === "timeZoneName")?.value ?? timeZone;
  const label = zoneName === timeZone ? timeZone : `${zoneName}, ${timeZone}`;
  return { date, time, zone: timeZone, zoneName, full: `${date}, ${time} (${label})` };
}
