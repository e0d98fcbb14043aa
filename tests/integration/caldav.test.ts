/**
 * The owner's CalDAV calendars (issue 43.3) against a real CalDAV server: Radicale, started here on
 * a free port with its own folder and one user (tests/helpers/radicale.ts), the calendars and
 * events made as a calendar app makes them (MKCALENDAR, PUT). A CalDAV source's busy times are read
 * through a calendar-query with the window's time range: a weekly 09:30 in Europe/London stays
 * 09:30 there across the 2027 change of the clocks, a single and an all-day event block their
 * times, a cancelled and a free one block nothing. An unchanged calendar is not read again (its
 * ctag); a changed one is. An account's address (its principal, the server's root) is followed to
 * its calendars with events. A revoked app password (401), an address that is no calendar (404, a
 * task list, a web page), a server that stops answering and one that is stopped each keep the last
 * known busy times and say why. Without Radicale these tests fail saying how to install it (SKIP_RADICALE=1 leaves them out).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CALDAV_REFUSED } from "../../server/calendar/caldav.server";
import {
  addCalDavSource,
  busyTimes,
  listSources,
  SourceFieldError,
  syncSource,
  type SyncOptions,
} from "../../server/calendar/sources.server";
import { freshDb, type TestDb } from "../helpers/db";
import { radicaleSkipped, startRadicale, type Radicale } from "../helpers/radicale";

const LONDON = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/London",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0000",
  "TZOFFSETTO:+0100",
  "TZNAME:BST",
  "DTSTART:19810329T010000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0000",
  "TZNAME:GMT",
  "DTSTART:19961027T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
];

/** One iCalendar object (a VCALENDAR) holding one event, as a calendar app PUTs it. */
function event(uid: string, lines: string[], timezone = false) {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//studio tests//caldav//EN",
    ...(timezone ? LONDON : []),
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20270101T000000Z",
    `SUMMARY:${uid}`,
    ...lines,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/** The work calendar's events: what a sync on 14 March 2027 should and should not see. */
const WORK: Record<string, string> = {
  // Mondays 09:30-10:30 London from 1 March, eight times; the clocks go forward on 28 March.
  "weekly.ics": event(
    "weekly",
    [
      "DTSTART;TZID=Europe/London:20270301T093000",
      "DTEND;TZID=Europe/London:20270301T103000",
      "RRULE:FREQ=WEEKLY;COUNT=8",
    ],
    true,
  ),
  "single.ics": event("single", ["DTSTART:20270317T140000Z", "DTEND:20270317T150000Z"]),
  "all-day.ics": event("all-day", ["DTSTART;VALUE=DATE:20270319", "DTEND;VALUE=DATE:20270320"]),
  "cancelled.ics": event("cancelled", ["DTSTART:20270318T100000Z", "DTEND:20270318T110000Z", "STATUS:CANCELLED"]),
  "free.ics": event("free", ["DTSTART:20270318T120000Z", "DTEND:20270318T130000Z", "TRANSP:TRANSPARENT"]),
  // Past the window: the server's time-range filter leaves it out.
  "june.ics": event("june", ["DTSTART:20270601T090000Z", "DTEND:20270601T100000Z"]),
};

/** The work calendar's busy times in the window, as [start, end] ISO instants. */
const WORK_BUSY = [
  ["2027-03-15T09:30:00.000Z", "2027-03-15T10:30:00.000Z"],
  ["2027-03-17T14:00:00.000Z", "2027-03-17T15:00:00.000Z"],
  // All day on 19 March in the studio's zone (London, still GMT).
  ["2027-03-19T00:00:00.000Z", "2027-03-20T00:00:00.000Z"],
  ["2027-03-22T09:30:00.000Z", "2027-03-22T10:30:00.000Z"],
  // 09:30 BST from 28 March.
  ["2027-03-29T08:30:00.000Z", "2027-03-29T09:30:00.000Z"],
  ["2027-04-05T08:30:00.000Z", "2027-04-05T09:30:00.000Z"],
  ["2027-04-12T08:30:00.000Z", "2027-04-12T09:30:00.000Z"],
];

const options: SyncOptions = {
  now: Date.parse("2027-03-14T12:00:00Z"),
  timeZone: "Europe/London",
  windowDays: 30,
  fetchLimits: { timeoutMs: 300 },
};

const iso = (busy: { start: number; end: number }[]) =>
  busy
    .map((b) => [new Date(b.start).toISOString(), new Date(b.end).toISOString()])
    .sort((a, b) => a[0].localeCompare(b[0]));

let t: TestDb;
beforeEach(async () => {
  t = await freshDb();
  return () => t.close();
});

describe("adding a CalDAV calendar", () => {
  it("needs the address, the user name and the app password, each refused at its field", async () => {
    const refusal = (input: { url: string; username: string; password: string }) =>
      addCalDavSource(t.db, { label: "Work", ...input }).then(
        () => "added",
        (e: unknown) => (e instanceof SourceFieldError ? `${e.field}: ${e.message}` : String(e)),
      );
    const good = { url: "https://caldav.example/dav/calendars/me/work/", username: "me", password: "app-pass" };
    expect(await refusal({ ...good, url: "ftp://caldav.example/" })).toBe(
      "url: The calendar's address must start with https:// (or http://)",
    );
    expect(await refusal({ ...good, url: "https://me:pw@caldav.example/" })).toBe(
      "url: Put no user name or password in the calendar's address: they have their own fields",
    );
    expect(await refusal({ ...good, username: "  " })).toBe("username: Enter the user name of your calendar account");
    expect(await refusal({ ...good, password: "" })).toBe("password: Enter an app password for this calendar");
    expect(await listSources(t.db)).toEqual([]);
  });
});

describe.skipIf(radicaleSkipped)("a CalDAV calendar on Radicale", () => {
  let radicale: Radicale;
  let work = "";

  beforeAll(async () => {
    radicale = await startRadicale();
    work = await radicale.mkcalendar("work");
    for (const [file, ics] of Object.entries(WORK)) await radicale.put(work, file, ics);
    const personal = await radicale.mkcalendar("personal");
    await radicale.put(
      personal,
      "dentist.ics",
      event("dentist", ["DTSTART:20270316T080000Z", "DTEND:20270316T090000Z"]),
    );
    // A task list: no events, never read.
    const tasks = await radicale.mkcalendar("tasks", ["VTODO"]);
    await radicale.put(
      tasks,
      "todo.ics",
      ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", "BEGIN:VTODO", "UID:todo", "DTSTAMP:20270101T000000Z"]
        .concat(["DUE:20270316T120000Z", "SUMMARY:todo", "END:VTODO", "END:VCALENDAR", ""])
        .join("\r\n"),
    );
  });
  afterAll(() => radicale?.close());

  const addWork = (url = work, password = radicale.password) =>
    addCalDavSource(t.db, { label: "Work", url, username: radicale.user, password });

  it("reads the window's busy times: 09:30 London across the change, single and all-day events; cancelled and free ones block nothing", async () => {
    const id = await addWork();
    expect(await syncSource(t.db, id, options)).toEqual({ ok: true, changed: true, busy: WORK_BUSY.length });
    expect(iso(await busyTimes(t.db))).toEqual(WORK_BUSY);
    const [view] = await listSources(t.db);
    expect(view).toMatchObject({
      id,
      kind: "caldav",
      label: "Work",
      host: new URL(radicale.origin).host,
      busyCount: WORK_BUSY.length,
      syncedAt: new Date(options.now).toISOString(),
      error: null,
    });
    // The app password stays on the server: never in what the console lists.
    expect(JSON.stringify(await listSources(t.db))).not.toContain(radicale.password);
    const row = await t.db.selectFrom("calendar_sources").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: radicale.user, password: radicale.password });
  });

  it("does not read an unchanged calendar again (its ctag), and reads a changed one", async () => {
    const moving = await radicale.mkcalendar("moving");
    try {
      await radicale.put(moving, "a.ics", event("a", ["DTSTART:20270320T100000Z", "DTEND:20270320T110000Z"]));
      const id = await addWork(moving);
      expect(await syncSource(t.db, id, options)).toEqual({ ok: true, changed: true, busy: 1 });
      const later = { ...options, now: options.now + 300_000 };
      expect(await syncSource(t.db, id, later)).toEqual({ ok: true, changed: false, busy: 1 });
      await radicale.put(moving, "b.ics", event("b", ["DTSTART:20270321T100000Z", "DTEND:20270321T110000Z"]));
      expect(await syncSource(t.db, id, later)).toEqual({ ok: true, changed: true, busy: 2 });
      // The next day the window has moved: read again though nothing changed.
      expect(await syncSource(t.db, id, { ...options, now: options.now + 86_400_000 })).toMatchObject({
        changed: true,
      });
    } finally {
      await radicale.remove(moving);
    }
  });

  it("follows an account's address (its principal, the server's root) to its calendars with events", async () => {
    for (const url of [`${radicale.origin}/${radicale.user}/`, `${radicale.origin}/`]) {
      await t.db.deleteFrom("calendar_sources").execute();
      const id = await addWork(url);
      expect(await syncSource(t.db, id, options)).toMatchObject({ ok: true, busy: WORK_BUSY.length + 1 });
      expect(iso(await busyTimes(t.db))).toEqual(
        [...WORK_BUSY, ["2027-03-16T08:00:00.000Z", "2027-03-16T09:00:00.000Z"]].sort((a, b) =>
          a[0].localeCompare(b[0]),
        ),
      );
    }
  });

  it("a revoked app password says 401 and keeps the busy times of the last good read", async () => {
    const id = await addWork();
    await syncSource(t.db, id, options);
    radicale.setPassword("a-new-app-password");
    try {
      const failed = { ...options, now: options.now + 60_000 };
      expect(await syncSource(t.db, id, failed)).toEqual({ ok: false, error: CALDAV_REFUSED, refused: true });
      expect(CALDAV_REFUSED).toBe("The CalDAV server refused the user name or app password (401)");
      expect(iso(await busyTimes(t.db))).toEqual(WORK_BUSY);
      expect((await listSources(t.db))[0]).toMatchObject({
        busyCount: WORK_BUSY.length,
        error: CALDAV_REFUSED,
        errorAt: new Date(failed.now).toISOString(),
        syncedAt: new Date(options.now).toISOString(),
      });
    } finally {
      radicale.setPassword(radicale.password);
    }
    // With the password right again, the error goes.
    expect(await syncSource(t.db, id, { ...options, now: options.now + 120_000 })).toMatchObject({ ok: true });
    expect((await listSources(t.db))[0]).toMatchObject({ error: null, errorAt: null });
  });

  it("says so of an address that is no calendar of events", async () => {
    // A web server that answers every request with a sign-in page.
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>Sign in</title>");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    try {
      const cases: [string, string][] = [
        [
          `${radicale.origin}/${radicale.user}/missing/`,
          "Not a CalDAV calendar (the address answered 404: is it current?)",
        ],
        [
          `${radicale.origin}/${radicale.user}/tasks/`,
          "Not a CalDAV calendar (this calendar holds no events, or is marked as free)",
        ],
        [`${page}/calendars/work/`, "Not a CalDAV calendar (the address answered with a web page)"],
        // A server's root is asked at its well-known address too.
        [`${page}/`, "Not a CalDAV calendar (no calendar account at this address)"],
      ];
      for (const [url, error] of cases) {
        await t.db.deleteFrom("calendar_sources").execute();
        const id = await addWork(url);
        expect(await syncSource(t.db, id, options)).toEqual({ ok: false, error });
        expect(await busyTimes(t.db)).toEqual([]);
      }
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it("a server that stops answering, then is stopped: the timeout, then the connection error, busy times kept", async () => {
    // A server of its own, so the others' stays up.
    const own = await startRadicale();
    try {
      const calendar = await own.mkcalendar("work");
      await own.put(calendar, "single.ics", WORK["single.ics"]);
      const id = await addCalDavSource(t.db, {
        label: "Own",
        url: calendar,
        username: own.user,
        password: own.password,
      });
      expect(await syncSource(t.db, id, options)).toMatchObject({ ok: true, busy: 1 });
      // Paused: the system still accepts the connection, nobody answers.
      process.kill(own.pid, "SIGSTOP");
      try {
        expect(await syncSource(t.db, id, { ...options, now: options.now + 60_000 })).toEqual({
          ok: false,
          error: "The CalDAV server did not answer within 0.3 s",
        });
      } finally {
        process.kill(own.pid, "SIGCONT");
      }
      await own.close();
      expect(await syncSource(t.db, id, { ...options, now: options.now + 120_000 })).toEqual({
        ok: false,
        error: `The CalDAV server could not be reached (${new URL(own.origin).host})`,
      });
      expect(iso(await busyTimes(t.db))).toEqual([WORK_BUSY[1]]);
      expect((await listSources(t.db))[0]).toMatchObject({
        busyCount: 1,
        errorAt: new Date(options.now + 60_000).toISOString(),
      });
    } finally {
      await own.close();
    }
  });
});
