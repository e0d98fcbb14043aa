import { isCalendarDate, isTimeZone } from "#domain/availability";
import type { CalendarSettings } from "#domain/calendar-settings";
import type { DB } from "../db/db.server";
import { openSlots } from "../calendar/calls.server";
import type { Slot } from "../calendar/slots.server";

/**
 * Step 6 with the built-in calendar (issue 43.4): the next days that have free times, in the
 * visitor's zone, a page of DAYS_A_PAGE days at a time, each time a radio of a plain form. The zone
 * is the one asked for in the address (`tz`: the browser's, sent once JavaScript runs), else the
 * one kept in the draft, else the studio's; every label is written here, on the server, so the page
 * reads the same with JavaScript off.
 */

export const DAYS_A_PAGE = 5;

export type PickerSlot = { start: string; label: string };
export type PickerDay = { date: string; label: string; slots: PickerSlot[] };

export type CallPicker = {
  timeZone: string;
  /** Whether the zone was picked (in the address or the draft), not the studio's by default. */
  chosen: boolean;
  /** The zone's name and its offset now, as the page names it: "Europe/London (GMT+1)". */
  zoneLabel: string;
  zones: string[];
  minutes: number;
  place: "video" | "phone";
  windowDays: number;
  days: PickerDay[];
  /** The first date of the pages before and after this one (null: none). */
  earlier: string | null;
  later: string | null;
};

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, kind: "date" | "day" | "time" | "zone"): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === "date"
        ? { year: "numeric", month: "2-digit", day: "2-digit" }
        : kind === "day"
          ? { weekday: "long", month: "long", day: "numeric" }
          : kind === "time"
            ? { hour: "numeric", minute: "2-digit" }
            : { timeZoneName: "shortOffset" };
    f = new Intl.DateTimeFormat(kind === "date" ? "en-CA" : "en-US", { ...options, timeZone });
    if (formatters.size > 200) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

/** "YYYY-MM-DD" of an instant in `timeZone`. */
export function localDate(ms: number, timeZone: string): string {
  return formatter(timeZone, "date").format(ms);
}

/** "Europe/London (GMT+1)": the zone, and its offset at `at`. */
export function zoneLabel(timeZone: string, at: number): string {
  const offset = formatter(timeZone, "zone")
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  return offset ? `${timeZone.replace(/_/g, " ")} (${offset})` : timeZone;
}

/** Every zone the runtime knows, the given ones included (a saved zone stays selectable). */
function zoneList(...keep: string[]): string[] {
  const known = new Set(Intl.supportedValuesOf("timeZone"));
  for (const z of keep) known.add(z);
  return [...known].sort();
}

/** The slots grouped by the visitor's date, a page of days from `start` (a date in that zone). */
export function pickerDays(
  slots: readonly Slot[],
  timeZone: string,
  start: string | null,
  daysAPage = DAYS_A_PAGE,
): Pick<CallPicker, "days" | "earlier" | "later"> {
  const byDate = new Map<string, PickerSlot[]>();
  const firstOf = new Map<string, number>();
  for (const s of slots) {
    const date = localDate(s.start, timeZone);
    let list = byDate.get(date);
    if (!list) {
      list = [];
      byDate.set(date, list);
      firstOf.set(date, s.start);
    }
    list.push({ start: new Date(s.start).toISOString(), label: formatter(timeZone, "time").format(s.start) });
  }
  const dates = [...byDate.keys()];
  let from = start ? dates.findIndex((d) => d >= start) : 0;
  if (from < 0) from = Math.max(0, dates.length - daysAPage);
  const shown = dates.slice(from, from + daysAPage);
  return {
    days: shown.map((date) => ({
      date,
      label: formatter(timeZone, "day").format(firstOf.get(date)!),
      slots: byDate.get(date)!,
    })),
    earlier: from > 0 ? dates[Math.max(0, from - daysAPage)] : null,
    later: dates[from + daysAPage] ?? null,
  };
}

/** Step 6's times for a visitor: `url` may ask for a zone (`tz`) and a page (`start`). */
export async function callPickerFor(
  db: DB,
  calendar: CalendarSettings,
  draftZone: string,
  url: URL,
  now = Date.now(),
  { except, current }: { except?: string; current?: number } = {},
): Promise<CallPicker> {
  const asked = url.searchParams.get("tz") ?? "";
  const studioZone = calendar.availability.timeZone;
  const timeZone = isTimeZone(asked) ? asked : isTimeZone(draftZone) ? draftZone : studioZone;
  const start = url.searchParams.get("start");
  // A call being moved: its own time does not block the others, and is not offered again.
  const slots = (await openSlots(db, calendar.availability, now, { except })).filter((x) => x.start !== current);
  return {
    timeZone,
    chosen: timeZone !== studioZone || isTimeZone(asked) || isTimeZone(draftZone),
    zoneLabel: zoneLabel(timeZone, now),
    zones: zoneList(timeZone, studioZone),
    minutes: calendar.availability.callMinutes,
    place: calendar.meetingUrl ? "video" : "phone",
    windowDays: calendar.availability.windowDays,
    ...pickerDays(slots, timeZone, start && isCalendarDate(start) ? start : null),
  };
}
