import { z } from "zod";
import {
  availabilitySchema,
  defaultAvailability,
  isCalendarDate,
  isTimeZone,
  MAX_OVERRIDES,
  MAX_RANGES_A_DAY,
  rangesProblem,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type Availability,
  type DayRange,
  type Weekday,
} from "./availability";
import { webUrlProblem } from "./web-url";

/**
 * Settings → Calendar (issue 43.1, 43.2, 43.6): where the consultation call is booked ("Built-in",
 * this studio's own calendar, or "Calendly", the embedded frame of Settings → Studio's calendar
 * link), the built-in calendar's availability, the meeting place (the owner's video link, or a
 * phone call to the number the client gave) and how late a client may move or cancel a call.
 *
 * The form is plain text, so it works without JavaScript and on a phone: each weekday's hours as
 * "09:00-12:00, 13:00-17:00" (empty: closed), date overrides a line each ("2027-01-05 off",
 * "2027-01-06 10:00-14:00"). Every problem is named in the field it belongs to. Client-safe: the
 * console's form and the server's action read the same schema.
 */

export const CALENDAR_PROVIDERS = ["builtin", "calendly"] as const;
export type CalendarProvider = (typeof CALENDAR_PROVIDERS)[number];
export const PROVIDER_LABELS: Record<CalendarProvider, string> = { builtin: "Built-in", calendly: "Calendly" };

export type CalendarSettings = {
  provider: CalendarProvider;
  availability: Availability;
  /** The owner's own video room (https), or "" for a phone call to the number the client gave. */
  meetingUrl: string;
  /** Until how many hours before the call a client may reschedule or cancel it themselves. */
  cutoffHours: number;
};

export const DEFAULT_CUTOFF_HOURS = 24;

/** A new studio's calendar: built-in, weekdays 09:00-17:00 in `timeZone`. */
export function defaultCalendar(timeZone: string, provider: CalendarProvider = "builtin"): CalendarSettings {
  return { provider, availability: defaultAvailability(timeZone), meetingUrl: "", cutoffHours: DEFAULT_CUTOFF_HOURS };
}

/**
 * The zones the form's list offers: UTC, then every zone this runtime knows. Read on the server and
 * sent with the page, so the list the browser shows is the one the server rendered (a browser's own
 * list differs: older names, UTC or not).
 */
export function timeZoneChoices(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
}

/** The form's field of each weekday's hours. */
export const hoursField = (day: Weekday) => `hours${day}` as const;

/** A day's ranges as the form shows them: "09:00-12:00, 13:00-17:00". */
export function rangesText(ranges: DayRange[]): string {
  return ranges.map((r) => `${r.start}-${r.end}`).join(", ");
}

/** Overrides as the form shows them: a line each, "2027-01-05 off" or "2027-01-06 10:00-14:00". */
export function overridesText(overrides: Availability["overrides"]): string {
  return overrides.map((o) => `${o.date} ${o.ranges.length ? rangesText(o.ranges) : "off"}`).join("\n");
}

const RANGE = /^(\d{1,2}):?(\d{2})\s*(?:-|\u2013|\u2014|to)\s*(\d{1,2}):?(\d{2})$/i;
const pad = (h: string, m: string) => `${h.padStart(2, "0")}:${m}`;

/**
 * "09:00-12:00, 13:00-17:00" as ranges; `where` names the day in a message. Empty: none. A piece
 * that is not a range gives a message naming it.
 */
export function parseRanges(value: string, where: string): { ranges: DayRange[] } | { problem: string } {
  const pieces = value
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (pieces.length > MAX_RANGES_A_DAY) return { problem: `${where}: at most ${MAX_RANGES_A_DAY} ranges a day` };
  const ranges: DayRange[] = [];
  for (const piece of pieces) {
    const m = RANGE.exec(piece);
    if (!m) return { problem: `${where}: "${piece.slice(0, 40)}" is not a range of hours (use 09:00-17:00)` };
    ranges.push({ start: pad(m[1], m[2]), end: pad(m[3], m[4]) });
  }
  const problem = rangesProblem(ranges, where);
  return problem ? { problem } : { ranges };
}

const OFF = /^(off|closed|none|-)$/i;

/** The overrides' lines: each "YYYY-MM-DD off" or "YYYY-MM-DD HH:MM-HH:MM, …"; a problem names its line. */
export function parseOverrides(value: string): { overrides: Availability["overrides"] } | { problem: string } {
  const lines = value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length > MAX_OVERRIDES) return { problem: `At most ${MAX_OVERRIDES} date overrides` };
  const overrides: Availability["overrides"] = [];
  const seen = new Set<string>();
  for (const [i, line] of lines.entries()) {
    const [date = "", ...rest] = line.split(/\s+/);
    const hours = rest.join(" ");
    const where = `Line ${i + 1}`;
    if (!isCalendarDate(date)) return { problem: `${where}: "${date.slice(0, 20)}" is not a date (use YYYY-MM-DD)` };
    if (seen.has(date)) return { problem: `${where}: ${date} has two overrides` };
    seen.add(date);
    if (!hours || OFF.test(hours)) {
      overrides.push({ date, ranges: [] });
      continue;
    }
    const parsed = parseRanges(hours, date);
    if ("problem" in parsed) return { problem: `${where}: ${parsed.problem}` };
    overrides.push({ date, ranges: parsed.ranges });
  }
  return { overrides: overrides.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)) };
}

const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v == null ? "" : String(v));
const field = z.preprocess(trimmed, z.string().max(2000, "Please keep this under 2,000 characters"));
const bigField = z.preprocess(trimmed, z.string().max(20_000, "Please keep this under 20,000 characters"));

/** A whole number from the form, or NaN (the range check then names it). */
const whole = (v: string) => (/^\d{1,6}$/.test(v) ? Number(v) : NaN);

type NumberRule = { min: number; max: number; message: string };
const NUMBERS = {
  callMinutes: { min: 15, max: 120, message: "Call length must be between 15 and 120 minutes" },
  intervalMinutes: { min: 5, max: 120, message: "The time between call starts must be between 5 and 120 minutes" },
  noticeHours: { min: 0, max: 720, message: "Minimum notice must be between 0 and 720 hours" },
  windowDays: { min: 1, max: 365, message: "The booking window must be between 1 and 365 days" },
  bufferBeforeMinutes: { min: 0, max: 240, message: "The buffer before a call must be between 0 and 240 minutes" },
  bufferAfterMinutes: { min: 0, max: 240, message: "The buffer after a call must be between 0 and 240 minutes" },
  cutoffHours: { min: 0, max: 720, message: "The cut-off must be between 0 and 720 hours" },
} satisfies Record<string, NumberRule>;
type NumberField = keyof typeof NUMBERS;

/** The Calendar section's form: its strings in, the section as stored out, each problem at its field. */
export const calendarSchema = z
  .object({
    provider: z.preprocess(trimmed, z.string()),
    timeZone: field,
    callMinutes: field,
    intervalMinutes: field,
    noticeHours: field,
    windowDays: field,
    bufferBeforeMinutes: field,
    bufferAfterMinutes: field,
    maxPerDay: field,
    cutoffHours: field,
    meetingUrl: z.preprocess(trimmed, z.string().max(500, "Please keep this under 500 characters")),
    overrides: bigField,
    ...(Object.fromEntries(WEEKDAYS.map((d) => [hoursField(d), field])) as Record<
      ReturnType<typeof hoursField>,
      typeof field
    >),
  })
  .transform((v, ctx): CalendarSettings => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!(CALENDAR_PROVIDERS as readonly string[]).includes(v.provider))
      problem("provider", "Choose Built-in or Calendly");
    if (!isTimeZone(v.timeZone))
      problem("timeZone", `"${v.timeZone.slice(0, 64)}" is not a time zone (for example Europe/London)`);
    const numbers = {} as Record<NumberField, number>;
    for (const key of Object.keys(NUMBERS) as NumberField[]) {
      const rule = NUMBERS[key];
      const n = whole(v[key]);
      if (!(n >= rule.min && n <= rule.max)) problem(key, rule.message);
      numbers[key] = n;
    }
    let maxPerDay: number | null = null;
    if (v.maxPerDay !== "") {
      maxPerDay = whole(v.maxPerDay);
      if (!(maxPerDay >= 1 && maxPerDay <= 48))
        problem("maxPerDay", "Calls a day must be from 1 to 48 (or empty for no limit)");
    }
    const weekly = {} as Record<Weekday, DayRange[]>;
    for (const day of WEEKDAYS) {
      const parsed = parseRanges(v[hoursField(day)], WEEKDAY_NAMES[day]);
      if ("problem" in parsed) problem(hoursField(day), parsed.problem);
      weekly[day] = "ranges" in parsed ? parsed.ranges : [];
    }
    const overrides = parseOverrides(v.overrides);
    if ("problem" in overrides) problem("overrides", overrides.problem);
    if (v.meetingUrl && webUrlProblem(v.meetingUrl))
      problem(
        "meetingUrl",
        webUrlProblem(v.meetingUrl) === "credentials"
          ? "The meeting link must not hold a user name or password"
          : "The meeting link must start with https://",
      );
    const availability: Availability = {
      timeZone: v.timeZone,
      callMinutes: numbers.callMinutes,
      intervalMinutes: numbers.intervalMinutes,
      weekly,
      noticeHours: numbers.noticeHours,
      windowDays: numbers.windowDays,
      bufferBeforeMinutes: numbers.bufferBeforeMinutes,
      bufferAfterMinutes: numbers.bufferAfterMinutes,
      overrides: "overrides" in overrides ? overrides.overrides : [],
      maxPerDay,
    };
    const hoursAt = WEEKDAYS.some((d) => weekly[d].length) || availability.overrides.some((o) => o.ranges.length);
    if (v.provider === "builtin" && !hoursAt)
      problem(hoursField("1"), "Give at least one day some hours, or no one can book a call");
    return {
      provider: v.provider as CalendarProvider,
      availability,
      meetingUrl: v.meetingUrl,
      cutoffHours: numbers.cutoffHours,
    };
  });

/** The section as stored (what a save wrote), read back. */
export const calendarStored = z.object({
  provider: z.enum(CALENDAR_PROVIDERS),
  availability: availabilitySchema,
  meetingUrl: z.string().transform((v) => (v && webUrlProblem(v) ? "" : v)),
  cutoffHours: z.number().int().min(0).max(720),
});

/** The section in its form's shape (strings). */
export function calendarFormValues(c: CalendarSettings): Record<string, string> {
  const a = c.availability;
  return {
    provider: c.provider,
    timeZone: a.timeZone,
    callMinutes: String(a.callMinutes),
    intervalMinutes: String(a.intervalMinutes),
    noticeHours: String(a.noticeHours),
    windowDays: String(a.windowDays),
    bufferBeforeMinutes: String(a.bufferBeforeMinutes),
    bufferAfterMinutes: String(a.bufferAfterMinutes),
    maxPerDay: a.maxPerDay === null ? "" : String(a.maxPerDay),
    cutoffHours: String(c.cutoffHours),
    meetingUrl: c.meetingUrl,
    overrides: overridesText(a.overrides),
    ...Object.fromEntries(WEEKDAYS.map((d) => [hoursField(d), rangesText(a.weekly[d])])),
  };
}
