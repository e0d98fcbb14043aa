import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { callIcs, escapeText, foldLine, type IcsCall } from "../../server/booking/ics.server";

const call: IcsCall = {
  bookingId: "0b2d5c4e-1f7a-4f8e-9a36-7c1b2e3d4f50",
  host: "studio.example",
  startAt: "2031-03-04T13:00:00.000Z",
  endAt: "2031-03-04T13:20:00.000Z",
  sequence: 2,
  stampAt: "2031-02-01T09:15:30.123Z",
  status: "scheduled",
  summary: "Free consultation with Studio Rowan",
  description: "Join the call: https://meet.example/abc?x=1,2\nReschedule; or cancel \\ later",
  joinUrl: "https://meet.example/abc?x=1,2",
  organizer: { name: "Studio Rowan", email: "hello@studio.example" },
  attendee: { name: 'Zoë "Z" Müller, Ph.D.; 東京のデザイン事務所の代表取締役社長です', email: "zoe@example.com" },
};

/** RFC 5545 §3.1: lines joined again where a CRLF is followed by a space. */
const unfold = (ics: string) => ics.replace(/\r\n /g, "").split("\r\n");

describe("the call's .ics (RFC 5545)", () => {
  it("is one VEVENT with a stable UID, the times in UTC, the join link, and alarms 24 hours and 1 hour before", () => {
    const ics = callIcs(call, "REQUEST");
    const lines = unfold(ics);
    expect(lines.slice(0, 5)).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Studio site//Consultation//EN",
      "CALSCALE:GREGORIAN",
      "METHOD:REQUEST",
    ]);
    expect(lines).toContain("UID:booking-0b2d5c4e-1f7a-4f8e-9a36-7c1b2e3d4f50@studio.example");
    expect(lines).toContain("DTSTAMP:20310201T091530Z");
    expect(lines).toContain("DTSTART:20310304T130000Z");
    expect(lines).toContain("DTEND:20310304T132000Z");
    expect(lines).toContain("SEQUENCE:2");
    expect(lines).toContain("STATUS:CONFIRMED");
    expect(lines).toContain("URL:https://meet.example/abc?x=1,2");
    expect(lines).toContain("LOCATION:https://meet.example/abc?x=1\\,2");
    expect(lines).toContain(
      "DESCRIPTION:Join the call: https://meet.example/abc?x=1\\,2\\nReschedule\\; or cancel \\\\ later",
    );
    expect(lines).toContain('ORGANIZER;CN="Studio Rowan":mailto:hello@studio.example');
    expect(lines).toContain(
      'ATTENDEE;CN="Zoë Z Müller, Ph.D.; 東京のデザイン事務所の代表取締役社長です";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:zoe@example.com',
    );
    const alarms = ics
      .split("BEGIN:VALARM")
      .slice(1)
      .map((a) => a.split("END:VALARM")[0]);
    expect(alarms).toHaveLength(2);
    expect(alarms[0]).toContain("TRIGGER:-PT24H");
    expect(alarms[1]).toContain("TRIGGER:-PT1H");
    for (const a of alarms) expect(a).toContain("ACTION:DISPLAY");
    expect(lines.slice(-2)).toEqual(["END:VCALENDAR", ""]);
    // Same call, same file: the UID and everything else are stable.
    expect(callIcs(call, "REQUEST")).toBe(ics);
    expect(callIcs(call, "PUBLISH")).toContain("METHOD:PUBLISH\r\n");
    expect(callIcs({ ...call, status: "cancelled" }, "REQUEST")).toContain("METHOD:CANCEL\r\nBEGIN:VEVENT");
  });

  it("ends every line in CRLF and folds at 75 octets without splitting a character", () => {
    const ics = callIcs(call, "REQUEST");
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of ics.split("\r\n")) {
      expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
      expect(line).not.toContain("\uFFFD");
    }
    expect(ics.split("\r\n").some((l) => l.startsWith(" "))).toBe(true);
    const long = "DESCRIPTION:" + "é".repeat(100);
    expect(unfold(foldLine(long))).toEqual([long]);
  });

  it("imports in a calendar (Mozilla's ical.js, the parser of Thunderbird): one event, its times, the join link and two alarms", () => {
    const calendar = new ICAL.Component(ICAL.parse(callIcs(call, "REQUEST")));
    expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    const events = calendar.getAllSubcomponents("vevent");
    expect(events).toHaveLength(1);
    const event = new ICAL.Event(events[0]);
    expect(event.uid).toBe("booking-0b2d5c4e-1f7a-4f8e-9a36-7c1b2e3d4f50@studio.example");
    expect(event.startDate.toJSDate().toISOString()).toBe(call.startAt);
    expect(event.endDate.toJSDate().toISOString()).toBe(call.endAt);
    expect(event.sequence).toBe(2);
    expect(event.summary).toBe(call.summary);
    expect(event.description).toBe(call.description);
    expect(event.location).toBe(call.joinUrl);
    expect(event.attendees.map((a) => a.getParameter("cn"))).toEqual([call.attendee.name.replace(/"/g, "")]);
    const alarms = events[0].getAllSubcomponents("valarm");
    expect(alarms.map((a) => [a.getFirstPropertyValue("action"), String(a.getFirstPropertyValue("trigger"))])).toEqual([
      ["DISPLAY", "-PT24H"],
      ["DISPLAY", "-PT1H"],
    ]);
  });

  it("escapes TEXT and drops control characters", () => {
    expect(escapeText("a,b;c\\d\r\ne\nf\u0007")).toBe("a\\,b\\;c\\\\d\\ne\\nf");
  });
});
