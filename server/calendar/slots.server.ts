import { Temporal } from "temporal-polyfill";
import { clockMinutes, type Availability, type DayRange, type Weekday } from "#domain/availability";

/**
 * The built-in calendar's free slots (issue 43.4): the studio's availability (server/domain/
 * availability.ts) laid over the dates from now to the end of the booking window, minus the
 * owner's busy times and the calls already booked. Wall-clock hours become instants through the
 * Temporal API (`temporal-polyfill`), date by date, never by adding hours to UTC: on the days the
 * clocks change, 09:00-17:00 stays 09:00-17:00 where the studio is. A time that does not exist that
 * day (inside the spring-forward gap) has no slot; a time that happens twice (the autumn overlap)
 * has one, at its first occurrence.
 */

/** From `start` up to `end`, in milliseconds since the epoch. */
export type Interval = { start: number; end: number };

/** A bookable call: its instants, and the studio's own date for it ("YYYY-MM-DD"). */
export type Slot = { start: number; end: number; date: string };

export type SlotInput = {
  /** Now, in milliseconds since the epoch. */
  now: number;
  /** The owner's busy times (their calendars): kept free, with the buffers around a new call. */
  busy: readonly Interval[];
  /** The calls booked already: each blocks its own buffers too, and counts toward its day's limit. */
  calls: readonly Interval[];
};

const MINUTE = 60_000;

/**
 * Intervals merged into a sorted list that no two overlap or touch: an overlap check is then one
 * binary search.
 */
export function mergeIntervals(intervals: Iterable<Interval>): Interval[] {
  const sorted = [...intervals].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const i of sorted) {
    const last = merged.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else merged.push({ start: i.start, end: i.end });
  }
  return merged;
}

/** Whether [start, end) meets any interval of a merged list. */
export function overlapsAny(merged: readonly Interval[], start: number, end: number): boolean {
  // The first interval that ends after `start`.
  let lo = 0;
  let hi = merged.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (merged[mid].end <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < merged.length && merged[lo].start < end;
}

/** The studio's own date of an instant. */
function studioDate(ms: number, timeZone: string): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(timeZone).toPlainDate();
}

/**
 * The instant of a wall-clock time on `date` in `timeZone`, or null when that time does not exist
 * there that day (the clocks jumped over it). Of a time that happens twice, the first.
 */
export function wallClockInstant(date: Temporal.PlainDate, minutes: number, timeZone: string): number | null {
  const wall = date.toPlainDateTime({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
  const zoned = wall.toZonedDateTime(timeZone, { disambiguation: "compatible" });
  // "compatible" moves a time in the gap forward: it was not there.
  if (Temporal.PlainDateTime.compare(zoned.toPlainDateTime(), wall) !== 0) return null;
  return zoned.epochMilliseconds;
}

/** The ranges of one date: its override's if it has one, else its weekday's. */
function rangesOn(a: Availability, date: Temporal.PlainDate, overrides: Map<string, DayRange[]>): DayRange[] {
  return overrides.get(date.toString()) ?? a.weekly[String(date.dayOfWeek) as Weekday] ?? [];
}

/**
 * Every free slot from now (plus the minimum notice) to the end of the booking window, earliest
 * first. A slot is free when it, with the buffers before and after, meets no busy time and no
 * booked call with that call's buffers, and its day has fewer calls than the day's limit.
 */
export function freeSlots(a: Availability, { now, busy, calls }: SlotInput): Slot[] {
  const before = a.bufferBeforeMinutes * MINUTE;
  const after = a.bufferAfterMinutes * MINUTE;
  const length = a.callMinutes * MINUTE;
  const earliest = now + a.noticeHours * 60 * MINUTE;
  const latest = now + a.windowDays * 24 * 60 * MINUTE;
  if (earliest > latest) return [];
  const blocked = mergeIntervals([...busy, ...calls.map((c) => ({ start: c.start - before, end: c.end + after }))]);
  const callsOn = new Map<string, number>();
  if (a.maxPerDay !== null) {
    for (const c of calls) {
      const day = studioDate(c.start, a.timeZone).toString();
      callsOn.set(day, (callsOn.get(day) ?? 0) + 1);
    }
  }
  const overrides = new Map(a.overrides.map((o) => [o.date, o.ranges]));
  const last = studioDate(latest, a.timeZone);
  const slots: Slot[] = [];
  for (
    let date = studioDate(earliest, a.timeZone);
    Temporal.PlainDate.compare(date, last) <= 0;
    date = date.add({ days: 1 })
  ) {
    const day = date.toString();
    // A day at its limit offers nothing; below it, every free slot (one booking fills it again).
    if (a.maxPerDay !== null && (callsOn.get(day) ?? 0) >= a.maxPerDay) continue;
    const ranges = [...rangesOn(a, date, overrides)].sort(
      (x, y) => (clockMinutes(x.start) ?? 0) - (clockMinutes(y.start) ?? 0),
    );
    for (const range of ranges) {
      const from = clockMinutes(range.start);
      const to = clockMinutes(range.end);
      if (from === null || to === null) continue;
      // The range's two ends as instants: as far apart as on the clock, the clocks do not change
      // inside it, and each slot is its start plus minutes; otherwise each slot's own wall time is
      // converted (the days the clocks change, and only the ranges that span the change).
      const first = wallClockInstant(date, from, a.timeZone);
      const last =
        to === 24 * 60
          ? wallClockInstant(date.add({ days: 1 }), 0, a.timeZone)
          : wallClockInstant(date, to, a.timeZone);
      const steady = first !== null && last === first + (to - from) * MINUTE;
      for (let m = from; m + a.callMinutes <= to; m += a.intervalMinutes) {
        const start = steady ? first + (m - from) * MINUTE : wallClockInstant(date, m, a.timeZone);
        if (start === null || start < earliest || start > latest) continue;
        const end = start + length;
        if (overlapsAny(blocked, start - before, end + after)) continue;
        slots.push({ start, end, date: day });
      }
    }
  }
  return slots;
}
