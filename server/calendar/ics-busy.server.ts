import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import { isTimeZone } from "#domain/availability";
import type { Interval } from "./slots.server";

/**
 * The busy times in an iCalendar feed (issue 43.3): the secret iCal address Google Calendar,
 * iCloud and Outlook publish, or a CalDAV calendar's objects. Recurring events are expanded here
 * (ical.js), with their exceptions (EXDATE, a moved or cancelled occurrence); a timed event's wall
 * times are read in its own zone through Temporal, so a weekly 09:30 stays 09:30 there across a
 * change of the clocks, whether or not the feed carries a VTIMEZONE for it; an all-day event blocks
 * its days in the studio's zone. Cancelled, declined (by one of `ownerEmails`) and free
 * ("transparent") events block nothing. Only what falls in `window` is kept, and a feed cannot make
 * the expansion run away: at most MAX_OCCURRENCES per event and MAX_BUSY in all.
 */

/** Busy times kept of one event, steps walked through one series, busy times of one feed. */
export const MAX_OCCURRENCES = 5_000;
export const MAX_STEPS = 100_000;
export const MAX_BUSY = 50_000;
const DAY = 86_400_000;

export type BusyOptions = {
  /** Only busy times that meet this interval are kept. */
  window: Interval;
  /** The studio's zone: for all-day and floating times. */
  timeZone: string;
  /** The owner's addresses: an event one of them declined blocks nothing. */
  ownerEmails?: readonly string[];
  /** Busy times kept of one event (MAX_OCCURRENCES). */
  maxOccurrences?: number;
};

/** A feed that could not be read as iCalendar. */
export class FeedFormatError extends Error {}

/** The instant of an ICAL.Time read as a wall time in `timeZone`. */
function wallInstant(t: ICAL.Time, timeZone: string): number {
  return Temporal.PlainDateTime.from({
    year: t.year,
    month: t.month,
    day: t.day,
    hour: t.hour,
    minute: t.minute,
    second: t.second,
  })
    .toZonedDateTime(timeZone, { disambiguation: "compatible" })
    .toInstant().epochMilliseconds;
}

/**
 * The instant of a timed ICAL.Time whose property named `tzid`: UTC as it is; an IANA zone through
 * Temporal; a zone only the feed defines (a VTIMEZONE under another name) through ical.js; a
 * floating time in the studio's zone.
 */
function instantOf(t: ICAL.Time, tzid: string | undefined, studioZone: string): number {
  if (t.zone?.tzid === "UTC" || tzid === "UTC" || tzid === "Z") return t.toUnixTime() * 1000;
  if (tzid && isTimeZone(tzid)) return wallInstant(t, tzid);
  if (tzid && t.zone && t.zone.tzid !== "floating") return t.toUnixTime() * 1000;
  return wallInstant(t, studioZone);
}

/** The TZID parameter of an event's DTSTART or DTEND. */
function tzidOf(event: ICAL.Event, name: "dtstart" | "dtend"): string | undefined {
  const tzid = event.component.getFirstProperty(name)?.getParameter("tzid");
  return typeof tzid === "string" ? tzid : undefined;
}

const upper = (v: unknown) => (typeof v === "string" ? v.toUpperCase() : "");

/** Whether an event blocks nothing: cancelled, free, or declined by the owner. */
function blocksNothing(event: ICAL.Event, owners: Set<string>): boolean {
  const c = event.component;
  if (upper(c.getFirstPropertyValue("status")) === "CANCELLED") return true;
  if (upper(c.getFirstPropertyValue("transp")) === "TRANSPARENT") return true;
  if (owners.size === 0) return false;
  return c.getAllProperties("attendee").some((a) => {
    const address = String(a.getFirstValue() ?? "")
      .replace(/^mailto:/i, "")
      .toLowerCase();
    return owners.has(address) && upper(a.getParameter("partstat")) === "DECLINED";
  });
}

/** One occurrence's busy time, or null when it blocks nothing. */
function occurrenceBusy(
  item: ICAL.Event,
  start: ICAL.Time,
  end: ICAL.Time,
  { timeZone }: BusyOptions,
  owners: Set<string>,
): Interval | null {
  if (blocksNothing(item, owners)) return null;
  if (start.isDate) {
    // An all-day event: its dates, the end exclusive (one day when it names none), in the studio's zone.
    const first = Temporal.PlainDate.from({ year: start.year, month: start.month, day: start.day });
    const last = end.isDate
      ? Temporal.PlainDate.from({ year: end.year, month: end.month, day: end.day })
      : first.add({ days: 1 });
    const to = Temporal.PlainDate.compare(last, first) > 0 ? last : first.add({ days: 1 });
    return {
      start: first.toZonedDateTime({ timeZone }).epochMilliseconds,
      end: to.toZonedDateTime({ timeZone }).epochMilliseconds,
    };
  }
  const from = instantOf(start, tzidOf(item, "dtstart"), timeZone);
  const until = instantOf(end, tzidOf(item, "dtend") ?? tzidOf(item, "dtstart"), timeZone);
  return until > from ? { start: from, end: until } : null;
}

/** The date of a DATE or DATE-TIME value as jCal writes it ("2027-03-01T09:00:00"), in ms, or NaN. */
const roughDay = (value: unknown) => (typeof value === "string" ? Date.parse(value.slice(0, 10)) : NaN);

/**
 * Whether a VEVENT may meet the window, read from its raw properties before the costly parts
 * (issue 43.10: most events of a calendar are long past or far ahead): a series, an exception or
 * anything not read plainly is kept; a single event is dropped only when its dates, two days
 * wide either side (any zone), fall outside the window.
 */
function mayMeet(v: ICAL.Component, window: { start: number; end: number }): boolean {
  const props = (v.jCal as [string, unknown[][]])[1];
  let start = NaN;
  let end = NaN;
  for (const p of props) {
    const name = p[0];
    if (name === "rrule" || name === "rdate" || name === "recurrence-id" || name === "duration") return true;
    if (name === "dtstart") start = roughDay(p[3]);
    else if (name === "dtend") end = roughDay(p[3]);
  }
  if (!Number.isFinite(start)) return true;
  const last = Number.isFinite(end) ? Math.max(start, end) : start;
  return start <= window.end + 2 * DAY && last + 3 * DAY >= window.start;
}

/** The busy times of an iCalendar text, in no particular order. */
export function busyFromIcs(text: string, options: BusyOptions): Interval[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    throw new FeedFormatError(`not an iCalendar feed (${error instanceof Error ? error.message : String(error)})`);
  }
  if (root.name !== "vcalendar") throw new FeedFormatError("not an iCalendar feed (no VCALENDAR)");
  // Zones the feed defines for itself, by their own names (Outlook's "Eastern Standard Time").
  const zones = new Map<string, ICAL.Timezone>();
  for (const vtimezone of root.getAllSubcomponents("vtimezone")) {
    const zone = new ICAL.Timezone(vtimezone);
    // Never over a zone ical.js has already (UTC, Z, GMT): removing it afterwards would take it
    // from every feed read later.
    if (zone.tzid && !isTimeZone(zone.tzid) && !ICAL.TimezoneService.get(zone.tzid)) zones.set(zone.tzid, zone);
  }
  for (const [tzid, zone] of zones) ICAL.TimezoneService.register(zone, tzid);
  try {
    const owners = new Set((options.ownerEmails ?? []).map((e) => e.toLowerCase()));
    const events = root
      .getAllSubcomponents("vevent")
      .filter((v) => mayMeet(v, options.window))
      // Exceptions are related below, once: left to itself, each Event scans every VEVENT of the
      // feed for its own (quadratic: 4 s for three feeds of 2,000 events; issue 43.10).
      .map((v) => new ICAL.Event(v, { exceptions: [] }));
    const masters = new Map<string, ICAL.Event>();
    for (const e of events) if (!e.isRecurrenceException()) masters.set(e.uid, e);
    // A moved or cancelled occurrence replaces its master's; one without a master stands alone.
    const alone: ICAL.Event[] = [];
    for (const e of events) {
      if (!e.isRecurrenceException()) continue;
      const master = masters.get(e.uid);
      if (master) master.relateException(e);
      else alone.push(e);
    }
    const { window } = options;
    const busy: Interval[] = [];
    const keep = (b: Interval | null) => {
      if (b && b.end > window.start && b.start < window.end) busy.push(b);
    };
    for (const event of [...masters.values(), ...alone]) {
      if (busy.length >= MAX_BUSY) break;
      if (!event.startDate) continue;
      const end = event.endDate ?? event.startDate;
      if (!event.isRecurring()) {
        keep(occurrenceBusy(event, event.startDate, end, options, owners));
        continue;
      }
      // The series from its start (a daily event since 2012 is walked through), each occurrence read
      // only near the window; at most MAX_STEPS steps and MAX_OCCURRENCES kept.
      const iterator = event.iterator();
      let kept = 0;
      for (let n = 0, next = iterator.next(); next && n < MAX_STEPS; n++, next = iterator.next()) {
        // The occurrence's time as its series names it, within a day or two of the real instant.
        const rough = next.toUnixTime() * 1000;
        if (rough < window.start - 2 * DAY) continue;
        if (rough > window.end + 2 * DAY) break;
        const details = event.getOccurrenceDetails(next);
        const before = busy.length;
        keep(occurrenceBusy(details.item, details.startDate, details.endDate, options, owners));
        kept += busy.length - before;
        if (kept >= (options.maxOccurrences ?? MAX_OCCURRENCES) || busy.length >= MAX_BUSY) break;
      }
    }
    return busy;
  } finally {
    for (const tzid of zones.keys()) ICAL.TimezoneService.remove(tzid);
  }
}
