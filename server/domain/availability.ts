import { z } from "zod";

/**
 * When the studio takes consultation calls (issue 43.2): the built-in calendar's availability, as
 * Cal.com models it. Weekly hours per weekday (several ranges a day) in the studio's time zone,
 * date overrides (a day off, or other hours on one date), the call's length and the step between
 * slot starts, minimum notice, how far ahead a call can be booked, buffers before and after each
 * call, and at most so many calls a day. Times of day are wall-clock times in `timeZone`: 09:00 is
 * 09:00 there on every date, the days the clocks change included (server/calendar/slots.server.ts
 * turns them into instants with a real time-zone library).
 */

/** A range of one day, "HH:MM" to "HH:MM" (24 h; "24:00" ends at midnight). */
export type DayRange = { start: string; end: string };

/** ISO weekdays, Monday first: the keys of `weekly`. */
export const WEEKDAYS = ["1", "2", "3", "4", "5", "6", "7"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  "1": "Monday",
  "2": "Tuesday",
  "3": "Wednesday",
  "4": "Thursday",
  "5": "Friday",
  "6": "Saturday",
  "7": "Sunday",
};

export type DateOverride = { date: string; ranges: DayRange[] };

export type Availability = {
  /** Any IANA zone (`STUDIO_TIMEZONE` by default). */
  timeZone: string;
  /** 15-120 minutes. */
  callMinutes: number;
  /** Between slot starts: 5-120 minutes. */
  intervalMinutes: number;
  weekly: Record<Weekday, DayRange[]>;
  /** Hours of a booking's start that must be left before it (0-720). */
  noticeHours: number;
  /** How many days ahead a call can be booked (1-365). */
  windowDays: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** One date's own hours (none: the day off), instead of its weekday's. */
  overrides: DateOverride[];
  /** At most so many calls on one day of the studio's (null: no limit). */
  maxPerDay: number | null;
};

export const CALL_MINUTES = { min: 15, max: 120, default: 30 } as const;
export const MAX_RANGES_A_DAY = 6;
export const MAX_OVERRIDES = 200;

/** The sample studio's hours: weekdays 09:00-17:00, 30-minute calls every 30 minutes. */
export function defaultAvailability(timeZone: string): Availability {
  const workday = [{ start: "09:00", end: "17:00" }];
  return {
    timeZone,
    callMinutes: CALL_MINUTES.default,
    intervalMinutes: 30,
    weekly: { "1": workday, "2": workday, "3": workday, "4": workday, "5": workday, "6": [], "7": [] },
    noticeHours: 24,
    windowDays: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 15,
    overrides: [],
    maxPerDay: null,
  };
}

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/;

/** Minutes after midnight of "HH:MM" ("24:00" is 1440), or null for anything else. */
export function clockMinutes(clock: string): number | null {
  const m = CLOCK.exec(clock);
  if (!m) return null;
  return m[1] === undefined ? 24 * 60 : Number(m[1]) * 60 + Number(m[2]);
}

/** The names asked about, answered once each: making an Intl.DateTimeFormat costs some 0.3 ms. */
const zoneAnswers = new Map<string, boolean>();

/** Whether Intl knows `name` as a time zone (any IANA name; "UTC" too). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  let known = zoneAnswers.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    // Bounded: a feed may name any number of made-up zones.
    if (zoneAnswers.size > 1000) zoneAnswers.clear();
    zoneAnswers.set(name, known);
  }
  return known;
}

/**
 * What is wrong with one day's ranges, named for the owner ("Monday: 12:00-11:00 ends before it
 * starts"), or null. Ranges may come in any order; they must not overlap.
 */
export function rangesProblem(ranges: DayRange[], day: string): string | null {
  if (ranges.length > MAX_RANGES_A_DAY) return `${day}: at most ${MAX_RANGES_A_DAY} ranges a day`;
  const spans: [number, number, DayRange][] = [];
  for (const r of ranges) {
    const start = clockMinutes(r.start);
    const end = clockMinutes(r.end);
    if (start === null || start === 24 * 60) return `${day}: "${r.start}" is not a time (use HH:MM, 00:00 to 23:59)`;
    if (end === null) return `${day}: "${r.end}" is not a time (use HH:MM, 00:00 to 24:00)`;
    if (end <= start) return `${day}: ${r.start}-${r.end} ends before it starts`;
    spans.push([start, end, r]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    const [prevStart, prevEnd, prev] = spans[i - 1];
    const [start, , r] = spans[i];
    if (start < prevEnd || start === prevStart) return `${day}: ${prev.start}-${prev.end} overlaps ${r.start}-${r.end}`;
  }
  return null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether "YYYY-MM-DD" is a real calendar date. */
export function isCalendarDate(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const range = z.object({ start: z.string(), end: z.string() });
const minutes = (label: string, min: number, max: number) =>
  z
    .number({ invalid_type_error: `${label} must be a number of minutes` })
    .int(`${label} must be a whole number of minutes`)
    .min(min, `${label} must be between ${min} and ${max} minutes`)
    .max(max, `${label} must be between ${min} and ${max} minutes`);

/** The availability as stored and as the console saves it: every problem named. */
export const availabilitySchema = z
  .object({
    timeZone: z
      .string()
      .refine(isTimeZone, (tz) => ({ message: `"${tz}" is not a time zone (for example Europe/London)` })),
    callMinutes: minutes("Call length", CALL_MINUTES.min, CALL_MINUTES.max),
    intervalMinutes: minutes("The time between slots", 5, 120),
    weekly: z.object(
      Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(range)])) as Record<Weekday, z.ZodArray<typeof range>>,
    ),
    noticeHours: z
      .number({ invalid_type_error: "Minimum notice must be a number of hours" })
      .int("Minimum notice must be a whole number of hours")
      .min(0, "Minimum notice must be between 0 and 720 hours")
      .max(720, "Minimum notice must be between 0 and 720 hours"),
    windowDays: z
      .number({ invalid_type_error: "The booking window must be a number of days" })
      .int("The booking window must be a whole number of days")
      .min(1, "The booking window must be between 1 and 365 days")
      .max(365, "The booking window must be between 1 and 365 days"),
    bufferBeforeMinutes: minutes("The buffer before a call", 0, 240),
    bufferAfterMinutes: minutes("The buffer after a call", 0, 240),
    overrides: z
      .array(z.object({ date: z.string(), ranges: z.array(range) }))
      .max(MAX_OVERRIDES, `At most ${MAX_OVERRIDES} date overrides`),
    maxPerDay: z
      .number({ invalid_type_error: "Calls a day must be a number" })
      .int("Calls a day must be a whole number")
      .min(1, "Calls a day must be at least 1 (or no limit)")
      .max(48, "Calls a day must be at most 48")
      .nullable(),
  })
  .superRefine((a, ctx) => {
    for (const day of WEEKDAYS) {
      const problem = rangesProblem(a.weekly[day], WEEKDAY_NAMES[day]);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["weekly", day], message: problem });
    }
    const seen = new Set<string>();
    a.overrides.forEach((o, i) => {
      if (!isCalendarDate(o.date))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["overrides", i, "date"],
          message: `"${o.date}" is not a date (use YYYY-MM-DD)`,
        });
      else if (seen.has(o.date))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["overrides", i, "date"],
          message: `${o.date} has two overrides`,
        });
      seen.add(o.date);
      const problem = rangesProblem(o.ranges, o.date);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["overrides", i, "ranges"], message: problem });
    });
    if (a.callMinutes + a.bufferBeforeMinutes + a.bufferAfterMinutes > 24 * 60)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["callMinutes"],
        message: "A call and its buffers must fit in a day",
      });
  });
