/**
 * Settings → Calendar's form (issue 43): the section's schema read through `parseSection`, as the
 * console's form and the Settings action read it. What the form shows for a saved section parses
 * back to that section; each bad input is refused with its message at its own field.
 */
import { describe, expect, it } from "vitest";
import { calendarFormValues, defaultCalendar, parseRanges, type CalendarSettings } from "#domain/calendar-settings";
import { parseSection } from "#domain/studio-settings";

/** A FormData of the form's fields, as the browser posts it. */
function formDataOf(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

const saved = defaultCalendar("Europe/London");

/** The default section's form, with some fields changed. */
function post(changes: Record<string, string> = {}) {
  return parseSection(formDataOf({ ...calendarFormValues(saved), ...changes }), "calendar");
}

/** The messages of a refused post, by field. */
function errorsOf(changes: Record<string, string>) {
  const submission = post(changes);
  expect(submission.status).toBe("error");
  return submission.reply().error ?? {};
}

/** The section a post saves (it must be accepted). */
function valueOf(changes: Record<string, string>): CalendarSettings {
  const submission = post(changes);
  if (submission.status !== "success") throw new Error(JSON.stringify(submission.reply().error));
  return submission.value as CalendarSettings;
}

const closedWeek = Object.fromEntries(["1", "2", "3", "4", "5", "6", "7"].map((d) => [`hours${d}`, ""]));

describe("Settings → Calendar's schema", () => {
  it("the form of the default calendar parses back to the same section", () => {
    expect(calendarFormValues(saved)).toMatchObject({
      provider: "builtin",
      timeZone: "Europe/London",
      hours1: "09:00-17:00",
      hours6: "",
      maxPerDay: "",
      overrides: "",
    });
    expect(valueOf({})).toEqual(saved);
    const calendly = defaultCalendar("Europe/London", "calendly");
    expect(parseSection(formDataOf(calendarFormValues(calendly)), "calendar")).toMatchObject({
      status: "success",
      value: calendly,
    });
  });

  it("reads a week of several ranges, overrides, a limit and a meeting link", () => {
    const value = valueOf({
      hours1: " 9:00-12:00 , 13:00 - 17:30 ",
      hours3: "",
      hours6: "10:00-14:00",
      overrides: "2027-01-06 10:00-14:00\n\n2027-01-05 off\n",
      maxPerDay: "4",
      meetingUrl: "https://meet.example.com/studio",
      cutoffHours: "48",
    });
    expect(value.availability.weekly["1"]).toEqual([
      { start: "09:00", end: "12:00" },
      { start: "13:00", end: "17:30" },
    ]);
    expect(value.availability.weekly["3"]).toEqual([]);
    expect(value.availability.weekly["6"]).toEqual([{ start: "10:00", end: "14:00" }]);
    // A line "DATE off" is the day off; the lines come back in date order.
    expect(value.availability.overrides).toEqual([
      { date: "2027-01-05", ranges: [] },
      { date: "2027-01-06", ranges: [{ start: "10:00", end: "14:00" }] },
    ]);
    expect(value.availability.maxPerDay).toBe(4);
    expect(value.meetingUrl).toBe("https://meet.example.com/studio");
    expect(value.cutoffHours).toBe(48);
    // Shown again, they read as they were saved.
    expect(calendarFormValues(value)).toMatchObject({
      hours1: "09:00-12:00, 13:00-17:30",
      overrides: "2027-01-05 off\n2027-01-06 10:00-14:00",
      maxPerDay: "4",
    });
  });

  it("names a weekday's hours that are not ranges, overlap or end before they start", () => {
    expect(errorsOf({ hours1: "9-5" })).toEqual({
      hours1: ['Monday: "9-5" is not a range of hours (use 09:00-17:00)'],
    });
    expect(errorsOf({ hours2: "09:00-12:00, 11:00-13:00" })).toEqual({
      hours2: ["Tuesday: 09:00-12:00 overlaps 11:00-13:00"],
    });
    expect(errorsOf({ hours7: "12:00-11:00" })).toEqual({ hours7: ["Sunday: 12:00-11:00 ends before it starts"] });
    expect(errorsOf({ hours4: "25:00-26:00" })).toEqual({
      hours4: ['Thursday: "25:00" is not a time (use HH:MM, 00:00 to 23:59)'],
    });
  });

  it("refuses a time zone it does not know", () => {
    expect(errorsOf({ timeZone: "Mars/Base" })).toEqual({
      timeZone: ['"Mars/Base" is not a time zone (for example Europe/London)'],
    });
    expect(valueOf({ timeZone: "UTC" }).availability.timeZone).toBe("UTC");
  });

  it("refuses numbers out of their range, each at its field", () => {
    expect(errorsOf({ callMinutes: "10" })).toEqual({
      callMinutes: ["Call length must be between 15 and 120 minutes"],
    });
    expect(errorsOf({ intervalMinutes: "0" })).toEqual({
      intervalMinutes: ["The time between call starts must be between 5 and 120 minutes"],
    });
    expect(errorsOf({ maxPerDay: "0" })).toEqual({
      maxPerDay: ["Calls a day must be from 1 to 48 (or empty for no limit)"],
    });
    expect(errorsOf({ noticeHours: "", windowDays: "2.5", bufferBeforeMinutes: "-1", cutoffHours: "721" })).toEqual({
      noticeHours: ["Minimum notice must be between 0 and 720 hours"],
      windowDays: ["The booking window must be between 1 and 365 days"],
      bufferBeforeMinutes: ["The buffer before a call must be between 0 and 240 minutes"],
      cutoffHours: ["The cut-off must be between 0 and 720 hours"],
    });
  });

  it("names the override line that is wrong", () => {
    expect(errorsOf({ overrides: "2027-01-05 off\n2027-02-30 off" })).toEqual({
      overrides: ['Line 2: "2027-02-30" is not a date (use YYYY-MM-DD)'],
    });
    expect(errorsOf({ overrides: "5 January off" })).toEqual({
      overrides: ['Line 1: "5" is not a date (use YYYY-MM-DD)'],
    });
    expect(errorsOf({ overrides: "2027-01-05 off\n2027-01-05 10:00-12:00" })).toEqual({
      overrides: ["Line 2: 2027-01-05 has two overrides"],
    });
    expect(errorsOf({ overrides: "2027-01-06 9-5" })).toEqual({
      overrides: ['Line 1: 2027-01-06: "9-5" is not a range of hours (use 09:00-17:00)'],
    });
  });

  it("takes only an https meeting link (plain http only on this machine)", () => {
    expect(errorsOf({ meetingUrl: "http://meet.example.com/studio" })).toEqual({
      meetingUrl: ["The meeting link must start with https://"],
    });
    expect(errorsOf({ meetingUrl: "zoom.us/j/123" })).toEqual({
      meetingUrl: ["The meeting link must start with https://"],
    });
    expect(errorsOf({ meetingUrl: "https://me:secret@meet.example.com/" })).toEqual({
      meetingUrl: ["The meeting link must not hold a user name or password"],
    });
    expect(valueOf({ meetingUrl: "" }).meetingUrl).toBe("");
  });

  it("offers Built-in or Calendly only", () => {
    expect(errorsOf({ provider: "other" })).toEqual({ provider: ["Choose Built-in or Calendly"] });
    expect(errorsOf({ provider: "" })).toEqual({ provider: ["Choose Built-in or Calendly"] });
    expect(valueOf({ provider: "calendly" }).provider).toBe("calendly");
  });

  it("the built-in calendar needs some hours: a weekday's or an override's", () => {
    expect(errorsOf(closedWeek)).toEqual({
      hours1: ["Give at least one day some hours, or no one can book a call"],
    });
    expect(errorsOf({ ...closedWeek, overrides: "2027-01-05 off" })).toEqual({
      hours1: ["Give at least one day some hours, or no one can book a call"],
    });
    expect(valueOf({ ...closedWeek, overrides: "2027-01-06 10:00-14:00" }).availability.overrides).toEqual([
      { date: "2027-01-06", ranges: [{ start: "10:00", end: "14:00" }] },
    ]);
    // Calendly takes the calls: the built-in hours may all be empty.
    expect(valueOf({ ...closedWeek, provider: "calendly" }).availability.weekly["1"]).toEqual([]);
  });

  it("reports every problem of one post at once", () => {
    expect(
      Object.keys(errorsOf({ hours1: "9-5", timeZone: "Mars/Base", callMinutes: "10", provider: "x" })).sort(),
    ).toEqual(["callMinutes", "hours1", "provider", "timeZone"]);
  });
});

describe("ranges as people type them", () => {
  it("takes an en dash, an em dash, 'to' and a missing colon or leading zero", () => {
    for (const typed of ["09:00\u201317:00", "9:00 \u2014 17:00", "0900 to 1700", "9:00-17:00"])
      expect(parseRanges(typed, "Monday")).toEqual({ ranges: [{ start: "09:00", end: "17:00" }] });
  });
});
