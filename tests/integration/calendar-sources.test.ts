/**
 * The owner's calendars (issue 43.3), on a real SQLite file and a local feed server: a source's
 * busy times are read and kept; asked again it answers 304 and they stand; a feed that turns into
 * a web page or stops answering keeps its last known busy times and says since when it fails; a
 * good answer clears the error. Addresses that are not feeds are refused, and the list shows a
 * secret address's host only.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  addFeedSource,
  busyTimes,
  listSources,
  removeSource,
  syncSource,
  type SyncOptions,
} from "../../server/calendar/sources.server";
import { DomainError } from "../../server/errors";
import { freshDb, type TestDb } from "../helpers/db";

/** What the feed server answers now. */
let mode: "feed" | "page" | "silent" = "feed";
let version = 1;
const conditional: string[] = [];

const feedText = (v: number) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "BEGIN:VEVENT",
    `UID:weekly-${v}`,
    "DTSTART;TZID=Europe/London:20270301T093000",
    "DTEND;TZID=Europe/London:20270301T103000",
    `RRULE:FREQ=WEEKLY;COUNT=${v === 1 ? 4 : v === 3 ? 6 : 2}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ].join("\r\n");

const server = http.createServer((req, res) => {
  if (mode === "silent") return;
  if (mode === "page") {
    res.writeHead(200, { "content-type": "text/html" });
    return void res.end("<!doctype html><title>Sign in to your calendar</title>");
  }
  const etag = `"v${version}"`;
  if (req.headers["if-none-match"]) conditional.push(req.headers["if-none-match"]);
  if (req.headers["if-none-match"] === etag) return void res.writeHead(304).end();
  res.writeHead(200, { "content-type": "text/calendar", etag });
  res.end(feedText(version));
});

let t: TestDb;
let feed = "";
const options: SyncOptions = {
  now: Date.parse("2027-02-28T12:00:00Z"),
  timeZone: "Europe/London",
  windowDays: 30,
  fetchLimits: { timeoutMs: 300 },
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  feed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/private-abc123/basic.ics`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  t = await freshDb();
  mode = "feed";
  version = 1;
  conditional.length = 0;
  return () => t.close();
});

describe("a feed's busy times", () => {
  it("keep a weekly 09:30 stand-up at 09:30 London time across the change of the clocks (28 March 2027)", async () => {
    version = 3; // six weeks from 1 March: three before the change, three after
    const id = await addFeedSource(t.db, { label: "Stand-ups", url: feed });
    expect((await syncSource(t.db, id, { ...options, windowDays: 45 })).ok).toBe(true);
    const starts = (await busyTimes(t.db)).map((b) => new Date(b.start).toISOString());
    expect(starts).toEqual([
      "2027-03-01T09:30:00.000Z",
      "2027-03-08T09:30:00.000Z",
      "2027-03-15T09:30:00.000Z",
      "2027-03-22T09:30:00.000Z",
      "2027-03-29T08:30:00.000Z",
      "2027-04-05T08:30:00.000Z",
    ]);
  });

  it("are read, kept, and stand when the feed answers 304", async () => {
    const id = await addFeedSource(t.db, { label: "Work", url: feed });
    expect(await syncSource(t.db, id, options)).toEqual({ ok: true, changed: true, busy: 4 });
    const busy = await busyTimes(t.db);
    expect(busy.map((b) => new Date(b.start).toISOString())).toEqual([
      "2027-03-01T09:30:00.000Z",
      "2027-03-08T09:30:00.000Z",
      "2027-03-15T09:30:00.000Z",
      "2027-03-22T09:30:00.000Z",
    ]);
    expect(await syncSource(t.db, id, { ...options, now: options.now + 300_000 })).toEqual({
      ok: true,
      changed: false,
      busy: 4,
    });
    expect(conditional).toEqual(['"v1"']);
    expect(await busyTimes(t.db)).toEqual(busy);
    // The next day it is read whole again (the window has moved on), without the validators.
    expect(await syncSource(t.db, id, { ...options, now: options.now + 86_400_000 })).toMatchObject({
      ok: true,
      changed: true,
    });
    expect(conditional).toEqual(['"v1"']);
    // A new version of the feed replaces them.
    version = 2;
    expect(await syncSource(t.db, id, options)).toEqual({ ok: true, changed: true, busy: 2 });
    expect(await busyTimes(t.db)).toHaveLength(2);
  });

  it("a failing feed keeps its last known busy times and says since when; a good answer clears it", async () => {
    const id = await addFeedSource(t.db, { label: "Work", url: feed });
    await syncSource(t.db, id, options);
    mode = "page";
    const first = await syncSource(t.db, id, { ...options, now: options.now + 60_000 });
    expect(first).toEqual({
      ok: false,
      error: "The feed answered with a web page, not a calendar (copy the secret address in iCal format)",
    });
    mode = "silent";
    expect(await syncSource(t.db, id, { ...options, now: options.now + 120_000 })).toEqual({
      ok: false,
      error: "The feed did not answer within 0.3 s",
    });
    // Never "everything free": the busy times of the last good answer stand.
    expect(await busyTimes(t.db)).toHaveLength(4);
    const [failing] = await listSources(t.db);
    expect(failing).toMatchObject({
      label: "Work",
      busyCount: 4,
      error: "The feed did not answer within 0.3 s",
      errorAt: new Date(options.now + 60_000).toISOString(),
      syncedAt: new Date(options.now).toISOString(),
    });
    mode = "feed";
    version = 2;
    expect((await syncSource(t.db, id, { ...options, now: options.now + 180_000 })).ok).toBe(true);
    expect((await listSources(t.db))[0]).toMatchObject({ error: null, errorAt: null, busyCount: 2 });
  });
});

describe("the list of sources", () => {
  it("refuses what is not a feed's address, and shows a secret address's host only", async () => {
    const refusal = (url: string) =>
      addFeedSource(t.db, { label: "x", url }).then(
        () => "added",
        (e: unknown) => (e instanceof DomainError ? `${e.kind}: ${e.message}` : String(e)),
      );
    expect(await refusal("file:///etc/passwd")).toBe(
      "invalid: The feed's address must start with https:// (or http://)",
    );
    expect(await refusal("not an address")).toBe("invalid: The feed's address is not a web address");
    const id = await addFeedSource(t.db, { label: "  ", url: feed.replace("http://", "webcal://") });
    const [view] = await listSources(t.db);
    expect(view).toMatchObject({ id, kind: "ics", label: "Calendar", busyCount: 0, syncedAt: null, error: null });
    expect(JSON.stringify(view)).not.toContain("private-abc123");
    expect(view.host).toBe(new URL(feed).host);
    await removeSource(t.db, id);
    expect(await listSources(t.db)).toEqual([]);
    expect(await busyTimes(t.db)).toEqual([]);
  });
});
