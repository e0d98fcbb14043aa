/**
 * Busy times from an iCalendar feed (issue 43.3): a weekly event across the 2027 change of the
 * clocks keeps its local time, with and without the feed's own VTIMEZONE; a skipped, a moved and a
 * cancelled occurrence; all-day events block their days in the studio's zone; cancelled, free and
 * declined events block nothing; only the window is kept; a runaway series stops; not a feed is
 * said so.
 */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { busyFromIcs, FeedFormatError, MAX_OCCURRENCES } from "../../server/calendar/ics-busy.server";

const LONDON_VTIMEZONE = `BEGIN:VTIMEZONE
TZID:Europe/London
BEGIN:DAYLIGHT
TZOFFSETFROM:+0000
TZOFFSETTO:+0100
TZNAME:BST
DTSTART:19700329T010000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0100
TZOFFSETTO:+0000
TZNAME:GMT
DTSTART:19701025T020000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE`;

const feed = (...parts: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...parts, "END:VCALENDAR"].join("\r\n");
const event = (...lines: string[]) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"].join("\r\n");

const window = { start: Date.parse("2027-03-01T00:00:00Z"), end: Date.parse("2027-04-30T00:00:00Z") };
const local = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(ms);
const spans = (busy: { start: number; end: number }[], timeZone: string) =>
  [...busy]
    .sort((a, b) => a.start - b.start)
    .map((b) => `${local(b.start, timeZone)} - ${local(b.end, timeZone).slice(11)}`);

describe("a weekly event across the change of the clocks", () => {
  // Mondays 09:30-10:30 in London from 15 March 2027: 22 March is skipped (EXDATE), 5 April moved
  // to 14:00-15:00, 12 April cancelled; British Summer Time starts on 28 March.
  const weekly = (withZone: boolean) =>
    feed(
      ...(withZone ? [LONDON_VTIMEZONE] : []),
      event(
        "UID:standup@example.com",
        "DTSTART;TZID=Europe/London:20270315T093000",
        "DTEND;TZID=Europe/London:20270315T103000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6",
        "EXDATE;TZID=Europe/London:20270322T093000",
        "SUMMARY:Stand-up",
      ),
      event(
        "UID:standup@example.com",
        "RECURRENCE-ID;TZID=Europe/London:20270405T093000",
        "DTSTART;TZID=Europe/London:20270405T140000",
        "DTEND;TZID=Europe/London:20270405T150000",
        "SUMMARY:Stand-up (moved)",
      ),
      event(
        "UID:standup@example.com",
        "RECURRENCE-ID;TZID=Europe/London:20270412T093000",
        "DTSTART;TZID=Europe/London:20270412T093000",
        "DTEND;TZID=Europe/London:20270412T103000",
        "STATUS:CANCELLED",
      ),
    );
  for (const withZone of [true, false]) {
    it(`stays 09:30 in London (${withZone ? "the feed's own VTIMEZONE" : "no VTIMEZONE: the IANA name"})`, () => {
      const busy = busyFromIcs(weekly(withZone), { window, timeZone: "UTC" });
      expect(spans(busy, "Europe/London")).toEqual([
        "2027-03-15 09:30 - 10:30",
        "2027-03-29 09:30 - 10:30",
        "2027-04-05 14:00 - 15:00",
        "2027-04-19 09:30 - 10:30",
      ]);
      // The instants moved with the clocks: 09:30 UTC before the change, 08:30 UTC after.
      expect(spans(busy, "UTC").slice(0, 2)).toEqual(["2027-03-15 09:30 - 10:30", "2027-03-29 08:30 - 09:30"]);
    });
  }

  it("New York's own change two weeks earlier, with no VTIMEZONE", () => {
    const ny = feed(
      event(
        "UID:ny@example.com",
        "DTSTART;TZID=America/New_York:20270308T090000",
        "DTEND;TZID=America/New_York:20270308T093000",
        "RRULE:FREQ=WEEKLY;COUNT=2",
      ),
    );
    expect(spans(busyFromIcs(ny, { window, timeZone: "UTC" }), "America/New_York")).toEqual([
      "2027-03-08 09:00 - 09:30",
      "2027-03-15 09:00 - 09:30",
    ]);
  });
});

describe("what blocks and what does not", () => {
  const owner = "owner@studio.example";
  const busy = busyFromIcs(
    feed(
      event("UID:1", "DTSTART:20270310T120000Z", "DTEND:20270310T130000Z", "SUMMARY:Lunch (UTC)"),
      event("UID:2", "DTSTART;VALUE=DATE:20270311", "DTEND;VALUE=DATE:20270313", "SUMMARY:Two days away"),
      event("UID:3", "DTSTART;VALUE=DATE:20270315", "SUMMARY:One day, no end"),
      event("UID:4", "DTSTART:20270316T120000Z", "DTEND:20270316T130000Z", "STATUS:CANCELLED"),
      event("UID:5", "DTSTART:20270317T120000Z", "DTEND:20270317T130000Z", "TRANSP:TRANSPARENT"),
      event(
        "UID:6",
        "DTSTART:20270318T120000Z",
        "DTEND:20270318T130000Z",
        `ATTENDEE;PARTSTAT=DECLINED:mailto:${owner.toUpperCase()}`,
        "ATTENDEE;PARTSTAT=ACCEPTED:mailto:someone@example.com",
      ),
      event(
        "UID:7",
        "DTSTART:20270319T120000Z",
        "DTEND:20270319T130000Z",
        "ATTENDEE;PARTSTAT=DECLINED:mailto:someone@example.com",
      ),
      event("UID:8", "DTSTART:20260101T120000Z", "DTEND:20260101T130000Z", "SUMMARY:Before the window"),
      event("UID:9", "DTSTART:20270320T090000", "DTEND:20270320T100000", "SUMMARY:Floating"),
    ),
    { window, timeZone: "Europe/Paris", ownerEmails: [owner] },
  );

  it("timed, all-day (in the studio's zone), floating (the studio's zone); not cancelled, free, declined or outside", () => {
    expect(spans(busy, "Europe/Paris")).toEqual([
      "2027-03-10 13:00 - 14:00",
      "2027-03-11 00:00 - 00:00",
      "2027-03-15 00:00 - 00:00",
      "2027-03-19 13:00 - 14:00",
      "2027-03-20 09:00 - 10:00",
    ]);
    const twoDays = busy.find((b) => local(b.start, "Europe/Paris").startsWith("2027-03-11"))!;
    expect(local(twoDays.end, "Europe/Paris")).toBe("2027-03-13 00:00");
  });
});

describe("events far from the window, passed over before they are read", () => {
  it("a long event from before the window that ends in it still blocks; one before or after it does not", () => {
    const busy = busyFromIcs(
      feed(
        event("UID:long", "DTSTART:20270220T090000Z", "DTEND:20270302T120000Z", "SUMMARY:A trip"),
        event("UID:before", "DTSTART:20270210T090000Z", "DTEND:20270210T100000Z"),
        event("UID:after", "DTSTART:20270515T090000Z", "DTEND:20270515T100000Z"),
        event("UID:edge", "DTSTART:20270429T230000Z", "DTEND:20270430T010000Z", "SUMMARY:Across the window's end"),
      ),
      { window, timeZone: "UTC" },
    );
    expect(spans(busy, "UTC")).toEqual(["2027-02-20 09:00 - 12:00", "2027-04-29 23:00 - 01:00"]);
  });
});

describe("feeds that are not what they claim", () => {
  it("a series with no end walked from 2012 reaches the window, and stops at its end", () => {
    const daily = feed(event("UID:d", "DTSTART:20120101T120000Z", "DTEND:20120101T121500Z", "RRULE:FREQ=DAILY"));
    const busy = busyFromIcs(daily, { window, timeZone: "UTC" });
    expect(busy).toHaveLength(60);
    expect(spans(busy, "UTC")[0]).toBe("2027-03-01 12:00 - 12:15");
  });

  it("a series of a minute each keeps at most so many occurrences (MAX_OCCURRENCES unless told)", () => {
    const minutely = feed(event("UID:m", "DTSTART:20270301T000000Z", "DTEND:20270301T000030Z", "RRULE:FREQ=MINUTELY"));
    expect(MAX_OCCURRENCES).toBe(5_000);
    const busy = busyFromIcs(minutely, { window, timeZone: "UTC", maxOccurrences: 200 });
    expect(busy).toHaveLength(200);
    expect(spans(busy, "UTC").at(-1)).toBe("2027-03-01 03:19 - 03:19");
  });

  it("a feed's own zone named like one ical.js has (Z) neither replaces it nor takes it away", () => {
    const bogus = feed(
      "BEGIN:VTIMEZONE\r\nTZID:Z\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+0500\r\nTZOFFSETTO:+0500\r\nDTSTART:19700101T000000\r\nEND:STANDARD\r\nEND:VTIMEZONE",
      event("UID:z", "DTSTART:20270310T120000Z", "DTEND:20270310T130000Z"),
    );
    const utc = feed(event("UID:u", "DTSTART:20270311T120000Z", "DTEND:20270311T130000Z"));
    expect(spans(busyFromIcs(bogus, { window, timeZone: "UTC" }), "UTC")).toEqual(["2027-03-10 12:00 - 13:00"]);
    expect(spans(busyFromIcs(utc, { window, timeZone: "UTC" }), "UTC")).toEqual(["2027-03-11 12:00 - 13:00"]);
    expect(ICAL.TimezoneService.get("Z")?.tzid).toBe("UTC");
  });

  it("HTML or nonsense is not a feed", () => {
    expect(() => busyFromIcs("<!doctype html><html></html>", { window, timeZone: "UTC" })).toThrow(FeedFormatError);
    expect(() => busyFromIcs("BEGIN:VCARD\r\nEND:VCARD", { window, timeZone: "UTC" })).toThrow(FeedFormatError);
  });
});
