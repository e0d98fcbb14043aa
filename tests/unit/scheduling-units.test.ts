import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatCallTime, isTimeZone, safeTimeZone } from "#domain/meeting-time";
import { scheduledUris } from "../../app/components/booking/Calendar";
import { parseCalendlyRef, parseInviteeUri } from "../../server/booking/calendly.server";
import { EnvError, parseEnv } from "../../server/env.server";

const EVENT = "https://api.calendly.com/scheduled_events/GBGBDCAADAEDCRZ2";
const INVITEE = `${EVENT}/invitees/AAAAAAAAAAAAAAAA`;

describe("the calendar's event and invitee URIs", () => {
  it("are taken from the calendly.event_scheduled message's payload, and nothing else", () => {
    expect(
      scheduledUris({
        event: "calendly.event_scheduled",
        payload: { event: { uri: EVENT }, invitee: { uri: INVITEE } },
      }),
    ).toEqual({ eventUri: EVENT, inviteeUri: INVITEE });
    expect(scheduledUris({ event: "calendly.event_scheduled", payload: {} })).toEqual({ eventUri: "", inviteeUri: "" });
    expect(scheduledUris({ event: "calendly.event_scheduled" })).toEqual({ eventUri: "", inviteeUri: "" });
    expect(scheduledUris({ payload: { event: { uri: 5 }, invitee: "x" } })).toEqual({ eventUri: "", inviteeUri: "" });
    expect(scheduledUris(null)).toEqual({ eventUri: "", inviteeUri: "" });
  });

  it("are accepted only on https://api.calendly.com/scheduled_events/…, the invitee under its event", () => {
    expect(parseCalendlyRef(EVENT, INVITEE)).toEqual({
      eventUri: EVENT,
      inviteeUri: INVITEE,
      eventUuid: "GBGBDCAADAEDCRZ2",
      inviteeUuid: "AAAAAAAAAAAAAAAA",
    });
    const uuid = "0b2d5c4e-1f7a-4f8e-9a36-7c1b2e3d4f50";
    expect(
      parseCalendlyRef(
        `https://api.calendly.com/scheduled_events/${uuid}`,
        `https://api.calendly.com/scheduled_events/${uuid}/invitees/${uuid}`,
      )?.eventUuid,
    ).toBe(uuid);
    for (const [e, i] of [
      [EVENT, "https://api.calendly.com/scheduled_events/OTHER/invitees/AAAAAAAAAAAAAAAA"],
      [
        "https://api.calendly.com.evil.example/scheduled_events/X",
        "https://api.calendly.com.evil.example/scheduled_events/X/invitees/Y",
      ],
      ["https://API.calendly.com/scheduled_events/X", "https://API.calendly.com/scheduled_events/X/invitees/Y"],
      ["https://api.calendly.com/scheduled_events/X/", "https://api.calendly.com/scheduled_events/X/invitees/Y"],
      ["https://api.calendly.com/scheduled_events/X#y", "https://api.calendly.com/scheduled_events/X/invitees/Y"],
      [
        "https://api.calendly.com/scheduled_events/%2e%2e",
        "https://api.calendly.com/scheduled_events/%2e%2e/invitees/Y",
      ],
      ["https://api.calendly.com/users/X", "https://api.calendly.com/users/X/invitees/Y"],
      [EVENT, undefined],
      [undefined, INVITEE],
      ["", ""],
    ]) {
      expect(parseCalendlyRef(e, i), `${e} ${i}`).toBeNull();
    }
    expect(parseInviteeUri(INVITEE)?.eventUri).toBe(EVENT);
    expect(parseInviteeUri(EVENT)).toBeNull();
  });
});

describe("the call's time", () => {
  it("is shown in a named zone, with the zone said", () => {
    const t = formatCallTime("2031-03-04T13:00:00.000Z", "2031-03-04T13:20:00.000Z", "Europe/Berlin");
    expect(t).toMatchObject({
      date: "Tuesday, March 4, 2031",
      time: "2:00 PM – 2:20 PM",
      zone: "Europe/Berlin",
      zoneName: "Central European Standard Time",
    });
    expect(t.full).toBe("Tuesday, March 4, 2031, 2:00 PM – 2:20 PM (Central European Standard Time, Europe/Berlin)");
    // Summer time is named as such; an unknown zone falls back to UTC (and says so).
    expect(formatCallTime("2031-07-04T13:00:00.000Z", null, "Europe/Berlin").full).toBe(
      "Friday, July 4, 2031, 3:00 PM (Central European Summer Time, Europe/Berlin)",
    );
    expect(formatCallTime("2031-07-04T13:00:00.000Z", null, "Mars/Olympus").full).toBe(
      "Friday, July 4, 2031, 1:00 PM (Coordinated Universal Time, UTC)",
    );
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("")).toBe(false);
    expect(safeTimeZone(undefined)).toBe("UTC");
  });
});

describe("the scheduling environment", () => {
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), "env-cal-"));
  it("defaults CALENDLY_API_BASE to Calendly's API and STUDIO_TIMEZONE to UTC; the token and signing key are optional", () => {
    const e = parseEnv({ DATA_DIR: dir() });
    expect(e.CALENDLY_API_BASE).toBe("https://api.calendly.com");
    expect(e.STUDIO_TIMEZONE).toBe("UTC");
    expect(e.CALENDLY_TOKEN).toBeUndefined();
    expect(e.CALENDLY_WEBHOOK_SIGNING_KEY).toBeUndefined();
    const set = parseEnv({
      DATA_DIR: dir(),
      CALENDLY_API_BASE: "http://127.0.0.1:4999/",
      CALENDLY_TOKEN: " t ",
      CALENDLY_WEBHOOK_SIGNING_KEY: "k",
      STUDIO_TIMEZONE: "Europe/Lisbon",
    });
    expect(set).toMatchObject({
      CALENDLY_API_BASE: "http://127.0.0.1:4999",
      CALENDLY_TOKEN: "t",
      CALENDLY_WEBHOOK_SIGNING_KEY: "k",
      STUDIO_TIMEZONE: "Europe/Lisbon",
    });
  });

  it("refuses a time zone the runtime does not know, or an API base that is not a URL, naming the variable", () => {
    expect(() => parseEnv({ DATA_DIR: dir(), STUDIO_TIMEZONE: "Europe/Atlantis" })).toThrowError(EnvError);
    expect(() => parseEnv({ DATA_DIR: dir(), STUDIO_TIMEZONE: "Europe/Atlantis" })).toThrowError(/STUDIO_TIMEZONE/);
    expect(() => parseEnv({ DATA_DIR: dir(), CALENDLY_API_BASE: "not a url" })).toThrowError(/CALENDLY_API_BASE/);
  });
});
