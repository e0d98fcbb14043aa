/**
 * The built-in calendar's availability and free slots (issue 43.2, 43.4, 43.10): the owner's hours
 * stay the owner's local hours on the 2027 days the clocks change in Europe/London and
 * America/New_York; notice, window, buffers, overrides and the day's limit; every problem in the
 * availability named; 30 days of slots against 6,000 busy times (how long that takes is a figure
 * of `npm run bench`, tests/perf/lists.ts: no test measures time, decision 021).
 */
import { describe, expect, it } from "vitest";
import {
  availabilitySchema,
  clockMinutes,
  defaultAvailability,
  rangesProblem,
  type Availability,
} from "../../server/domain/availability";
import { freeSlots, mergeIntervals, overlapsAny, type Interval, type Slot } from "../../server/calendar/slots.server";

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

/** Local "HH:MM" of an instant in a zone. */
const localTime = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);

/** Every day 09:00-17:00, hourly calls of 60 minutes, no notice and no buffers: one slot an hour. */
function everyDay(timeZone: string, more: Partial<Availability> = {}): Availability {
  const day = [{ start: "09:00", end: "17:00" }];
  return {
    ...defaultAvailability(timeZone),
    callMinutes: 60,
    intervalMinutes: 60,
    noticeHours: 0,
    bufferAfterMinutes: 0,
    weekly: { "1": day, "2": day, "3": day, "4": day, "5": day, "6": day, "7": day },
    ...more,
  };
}

const onDate = (slots: Slot[], date: string) => slots.filter((s) => s.date === date);

describe("the days the clocks change (2027)", () => {
  const cases = [
    { zone: "Europe/London", spring: "2027-03-28", autumn: "2027-10-31", springUtc9: "08:00", autumnUtc9: "09:00" },
    { zone: "America/New_York", spring: "2027-03-14", autumn: "2027-11-07", springUtc9: "13:00", autumnUtc9: "14:00" },
  ];
  for (const c of cases) {
    it(`${c.zone}: 09:00-17:00 stays 09:00-17:00 local on ${c.spring} and ${c.autumn}, and the days around them`, () => {
      for (const date of [c.spring, c.autumn]) {
        const now = at(`${date}T00:00:00Z`) - 2 * 24 * HOUR;
        const slots = freeSlots(everyDay(c.zone, { windowDays: 5 }), { now, busy: [], calls: [] });
        for (const offset of [-1, 0, 1]) {
          const d = new Date(at(`${date}T12:00:00Z`) + offset * 24 * HOUR).toISOString().slice(0, 10);
          const day = onDate(slots, d);
          expect(
            day.map((s) => localTime(s.start, c.zone)),
            d,
          ).toEqual(["09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00"]);
          for (const s of day) expect(s.end - s.start).toBe(HOUR);
        }
      }
      // The instants move with the clocks: 09:00 on the spring day is an hour earlier in UTC than the day before.
      const spring = freeSlots(everyDay(c.zone, { windowDays: 5 }), {
        now: at(`${c.spring}T00:00:00Z`) - 2 * 24 * HOUR,
        busy: [],
        calls: [],
      });
      expect(new Date(onDate(spring, c.spring)[0].start).toISOString().slice(11, 16)).toBe(c.springUtc9);
      const autumn = freeSlots(everyDay(c.zone, { windowDays: 5 }), {
        now: at(`${c.autumn}T00:00:00Z`) - 2 * 24 * HOUR,
        busy: [],
        calls: [],
      });
      expect(new Date(onDate(autumn, c.autumn)[0].start).toISOString().slice(11, 16)).toBe(c.autumnUtc9);
    });
  }

  it("a time the clocks jump over has no slot; a time that happens twice has one", () => {
    const night = [{ start: "00:00", end: "04:00" }];
    const a = everyDay("Europe/London", {
      windowDays: 3,
      weekly: { "1": night, "2": night, "3": night, "4": night, "5": night, "6": night, "7": night },
    });
    const spring = onDate(freeSlots(a, { now: at("2027-03-27T12:00:00Z"), busy: [], calls: [] }), "2027-03-28");
    expect(spring.map((s) => localTime(s.start, "Europe/London"))).toEqual(["00:00", "02:00", "03:00"]);
    const autumn = onDate(freeSlots(a, { now: at("2027-10-30T12:00:00Z"), busy: [], calls: [] }), "2027-10-31");
    expect(autumn.map((s) => localTime(s.start, "Europe/London"))).toEqual(["00:00", "01:00", "02:00", "03:00"]);
    // 01:00 is its first occurrence (still summer time): 00:00 UTC.
    expect(new Date(autumn[1].start).toISOString()).toBe("2027-10-31T00:00:00.000Z");
  });
});

describe("what makes a slot free", () => {
  const zone = "Europe/London";
  // Monday 2027-06-07, 08:00 in London (07:00 UTC).
  const now = at("2027-06-07T07:00:00Z");

  it("keeps the minimum notice and ends with the booking window", () => {
    const slots = freeSlots(everyDay(zone, { noticeHours: 24, windowDays: 3 }), { now, busy: [], calls: [] });
    expect(slots[0].start).toBeGreaterThanOrEqual(now + 24 * HOUR);
    expect(localTime(slots[0].start, zone)).toBe("09:00");
    expect(slots[0].date).toBe("2027-06-08");
    // Three days from now is Thursday 08:00 in London: Wednesday's 16:00 is the last slot.
    expect(Math.max(...slots.map((s) => s.start))).toBeLessThanOrEqual(now + 3 * 24 * HOUR);
    expect(slots.at(-1)!.date).toBe("2027-06-09");
    expect(localTime(slots.at(-1)!.start, zone)).toBe("16:00");
  });

  it("leaves out a slot that meets a busy time with its buffers, and a booked call's own buffers", () => {
    const a = everyDay(zone, { windowDays: 1, bufferBeforeMinutes: 0, bufferAfterMinutes: 15 });
    const busy = [{ start: at("2027-06-07T10:30:00Z"), end: at("2027-06-07T11:00:00Z") }]; // 11:30-12:00 local
    const calls = [{ start: at("2027-06-07T13:00:00Z"), end: at("2027-06-07T14:00:00Z") }]; // 14:00-15:00 local
    const times = onDate(freeSlots(a, { now, busy, calls }), "2027-06-07").map((s) => localTime(s.start, zone));
    // 10:00-11:00 plus 15 minutes after ends before 11:30; 11:00 and 12:00 meet the busy time (11:00's
    // buffer ends 12:15, 12:00 starts when it ends, but 11:00 runs into it); 13:00 meets the call
    // (its buffer), 14:00 is the call, 15:00 is inside the call's buffer.
    expect(times).toEqual(["09:00", "10:00", "12:00", "16:00"]);
  });

  it("a day off or other hours on one date, and at most so many calls a day", () => {
    const a = everyDay(zone, {
      windowDays: 3,
      maxPerDay: 1,
      overrides: [
        { date: "2027-06-08", ranges: [] },
        { date: "2027-06-09", ranges: [{ start: "13:00", end: "15:00" }] },
      ],
    });
    const calls = [{ start: at("2027-06-10T08:00:00Z"), end: at("2027-06-10T09:00:00Z") }];
    const slots = freeSlots(a, { now, busy: [], calls });
    expect(onDate(slots, "2027-06-08")).toEqual([]);
    expect(onDate(slots, "2027-06-09").map((s) => localTime(s.start, zone))).toEqual(["13:00", "14:00"]);
    // The 10th has its one call already.
    expect(onDate(slots, "2027-06-10")).toEqual([]);
    expect(onDate(slots, "2027-06-07").length).toBeGreaterThan(0);
  });

  it("steps by the interval, with calls that fit before the range ends", () => {
    const a = everyDay(zone, {
      windowDays: 1,
      callMinutes: 45,
      intervalMinutes: 30,
      weekly: { ...everyDay(zone).weekly, "1": [{ start: "09:00", end: "11:00" }] },
    });
    const times = onDate(freeSlots(a, { now, busy: [], calls: [] }), "2027-06-07").map((s) => localTime(s.start, zone));
    expect(times).toEqual(["09:00", "09:30", "10:00"]);
  });

  it("30 days of slots against 6,000 busy times: none meets one (the time it takes is in npm run bench)", () => {
    // Three calendars of 2,000 events each: mostly outside working hours, a lunch every day, and
    // the three calendars' copies of the same events.
    const busy: Interval[] = [];
    const hours = [0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19, 20, 21, 22, 11];
    for (let i = 0; i < 6000; i++) {
      const start = at("2027-06-07T00:00:00Z") + (i % 31) * 24 * HOUR + hours[i % hours.length] * HOUR;
      busy.push({ start, end: start + 30 * 60_000 });
    }
    const a = { ...defaultAvailability(zone), intervalMinutes: 15, noticeHours: 0 };
    const slots = freeSlots(a, { now, busy, calls: [] });
    expect(slots.length).toBeGreaterThan(0);
    const merged = mergeIntervals(busy);
    for (const s of slots) expect(overlapsAny(merged, s.start, s.end + 15 * 60_000)).toBe(false);
    // Against every busy time one by one, too: the merged list loses none.
    for (const s of slots) expect(busy.some((b) => b.start < s.end + 15 * 60_000 && s.start < b.end)).toBe(false);
    // 11:00-11:30 UTC (12:00-12:30 in London's summer) is busy every day: no 11:30 slot (its buffer
    // runs into it) and no 12:00.
    expect(slots.some((s) => ["11:30", "12:00"].includes(localTime(s.start, zone)))).toBe(false);
    expect(slots.some((s) => localTime(s.start, zone) === "12:30")).toBe(true);
  });
});

describe("the availability's own problems, named", () => {
  const valid = defaultAvailability("Europe/London");
  const problems = (a: unknown) => {
    const r = availabilitySchema.safeParse(a);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it("takes the sample studio's hours", () => {
    expect(problems(valid)).toEqual([]);
    expect(clockMinutes("24:00")).toBe(1440);
    expect(clockMinutes("9:00")).toBeNull();
  });

  it("names overlapping, reversed and malformed ranges, by day", () => {
    expect(
      rangesProblem(
        [
          { start: "09:00", end: "12:00" },
          { start: "11:00", end: "13:00" },
        ],
        "Monday",
      ),
    ).toBe("Monday: 09:00-12:00 overlaps 11:00-13:00");
    expect(rangesProblem([{ start: "12:00", end: "11:00" }], "Tuesday")).toBe(
      "Tuesday: 12:00-11:00 ends before it starts",
    );
    expect(rangesProblem([{ start: "09:00", end: "09:00" }], "Friday")).toBe(
      "Friday: 09:00-09:00 ends before it starts",
    );
    expect(rangesProblem([{ start: "9am", end: "17:00" }], "Sunday")).toBe(
      'Sunday: "9am" is not a time (use HH:MM, 00:00 to 23:59)',
    );
    expect(
      problems({
        ...valid,
        weekly: {
          ...valid.weekly,
          "3": [
            { start: "13:00", end: "17:00" },
            { start: "09:00", end: "13:30" },
          ],
        },
      }),
    ).toEqual(["Wednesday: 09:00-13:30 overlaps 13:00-17:00"]);
  });

  it("names a wrong zone, length, notice, window, date and limit", () => {
    expect(problems({ ...valid, timeZone: "Mars/Olympus" })).toEqual([
      '"Mars/Olympus" is not a time zone (for example Europe/London)',
    ]);
    expect(problems({ ...valid, callMinutes: 10 })).toEqual(["Call length must be between 15 and 120 minutes"]);
    expect(problems({ ...valid, callMinutes: 121 })).toEqual(["Call length must be between 15 and 120 minutes"]);
    expect(problems({ ...valid, noticeHours: -1 })).toEqual(["Minimum notice must be between 0 and 720 hours"]);
    expect(problems({ ...valid, windowDays: 0 })).toEqual(["The booking window must be between 1 and 365 days"]);
    expect(problems({ ...valid, maxPerDay: 0 })).toEqual(["Calls a day must be at least 1 (or no limit)"]);
    expect(problems({ ...valid, overrides: [{ date: "2027-02-30", ranges: [] }] })).toEqual([
      '"2027-02-30" is not a date (use YYYY-MM-DD)',
    ]);
    expect(
      problems({
        ...valid,
        overrides: [
          { date: "2027-06-08", ranges: [] },
          { date: "2027-06-08", ranges: [] },
        ],
      }),
    ).toEqual(["2027-06-08 has two overrides"]);
  });
});
