/**
 * Settings → Calendar's calendars and feed address (issue 43.3, 43.8), driven as the owner's
 * browser would without JavaScript: the Settings page's loader and action with an admin's session
 * cookie, and a local feed server. A calendar added is read at once and listed by its host only;
 * a feed answering a web page is added but its error is shown, and one that turns into a page keeps
 * the busy times of its last good answer; "Check now" reads again; "Remove" removes; addresses that
 * are not feeds are refused at their field with what was typed; a calendar removed meanwhile is
 * said so; a signed-in buyer is sent away; "Make a new address" changes the owner's feed address
 * and the old one answers 404. "Add a CalDAV calendar" against a real CalDAV server (Radicale,
 * tests/helpers/radicale.ts): added and read at once; a missing password, or one the server
 * refuses, is said at its field with the rest of what was typed and nothing added; the password is
 * never in an answer or in the page's data.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as SettingsPage from "../../server/http/settings-page.server";
import type * as FeedRoute from "../../app/routes/calendar.$file";
import type * as Users from "../../server/auth/users.server";
import type { auth as Auth } from "../../server/auth/auth.server";
import type { db as Db } from "../../server/db.server";
import type { CalendarActionData } from "../../server/http/calendar-settings.server";
import type { SettingsActionData } from "../../server/http/settings-page.server";
import { radicaleSkipped, startRadicale, type Radicale } from "../helpers/radicale";

/** What the feed server answers on /good/…: a feed, or (mode "page") a sign-in page. */
let mode: "feed" | "page" = "feed";
/** How many calls the good feed holds, one a day from tomorrow. */
let events = 3;

const DAY = 86_400_000;
const icsTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** A feed of `n` one-hour events at 10:00 UTC, one a day from tomorrow: inside any booking window. */
function feedText(n: number) {
  const day = Math.floor(Date.now() / DAY) * DAY;
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//feed//EN"];
  for (let i = 1; i <= n; i++) {
    const start = day + i * DAY + 10 * 3_600_000;
    lines.push(
      "BEGIN:VEVENT",
      `UID:busy-${i}@test`,
      `DTSTAMP:${icsTime(day)}`,
      `DTSTART:${icsTime(start)}`,
      `DTEND:${icsTime(start + 3_600_000)}`,
      "SUMMARY:Dentist",
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return lines.join("\r\n");
}

const feedServer = http.createServer((req, res) => {
  if (req.url?.startsWith("/page/") || mode === "page") {
    res.writeHead(200, { "content-type": "text/html" });
    return void res.end("<!doctype html><title>Sign in to your calendar</title>");
  }
  res.writeHead(200, { "content-type": "text/calendar" });
  res.end(feedText(events));
});

let origin = "";
const APP_URL = "https://studio.test";

type Modules = {
  settings: typeof SettingsPage;
  feedRoute: typeof FeedRoute;
  db: typeof Db;
  users: typeof Users;
  auth: typeof Auth;
};
let m: Modules;

beforeAll(async () => {
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  // Before the app's modules read the environment.
  process.env.APP_URL = APP_URL;
  const { migrateToLatest } = await import("../../server/db/db.server");
  m = {
    settings: await import("../../server/http/settings-page.server"),
    feedRoute: await import("../../app/routes/calendar.$file"),
    db: (await import("../../server/db.server")).db,
    users: await import("../../server/auth/users.server"),
    auth: (await import("../../server/auth/auth.server")).auth,
  };
  await migrateToLatest(m.db());
});
afterAll(() => {
  feedServer.closeAllConnections();
  return new Promise((resolve) => feedServer.close(resolve));
});

let admin = "";
beforeEach(async () => {
  mode = "feed";
  events = 3;
  // Every test starts without calendars (the files share one data folder).
  await m.db().deleteFrom("calendar_sources").execute();
  admin = await cookieFor("owner@studio.test", true);
});

/** A session cookie of a user (an admin or not), as the browser sends it back. */
async function cookieFor(email: string, isAdmin: boolean) {
  const u = isAdmin ? await m.users.grantAdmin(m.db(), email) : await m.users.ensureUser(m.db(), email);
  const session = await m.auth().sessionStorage.getSession();
  session.set("userId", u.id);
  return (await m.auth().sessionStorage.commitSession(session)).split(";")[0];
}

const PAGE = `${APP_URL}/admin/settings?section=calendar`;

/** The page as its loader gives it (a thrown answer, such as the guard's redirect, is returned). */
async function load(cookie = admin) {
  return m.settings.settingsLoader(new Request(PAGE, { headers: { Cookie: cookie } }));
}

/** What a post came back with: its status, a redirect's address, and what the calendar form did. */
type Posted = { status: number; location: string | null } & Partial<CalendarActionData>;

/** A calendar form posted as a plain form (no JavaScript): its status and what the action answered. */
async function post(fields: Record<string, string>, cookie = admin): Promise<Posted> {
  const request = new Request(PAGE, {
    method: "POST",
    body: new URLSearchParams({ section: "calendar", ...fields }),
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  let answer: unknown;
  try {
    answer = await m.settings.settingsAction(request);
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    throw thrown;
  }
  const wrapped = answer as { type?: string; data?: SettingsActionData; init?: { status?: number } };
  if (wrapped.type === "DataWithResponseInit")
    return { status: wrapped.init?.status ?? 200, ...wrapped.data!.calendar!, location: null };
  return { status: 200, ...(answer as SettingsActionData).calendar!, location: null };
}

const add = (label: string, url: string) => post({ intent: "add-source", label, url });

/** The owner's feed through its route: its status and body. */
async function feed(address: string) {
  const file = new URL(address).pathname.replace(/^\/calendar\//, "");
  const res = await m.feedRoute.loader({
    request: new Request(address),
    params: { file },
    context: {},
  } as never);
  return { status: res.status, text: await res.text() };
}

describe("Your calendars", () => {
  it("adds a calendar, reads it at once, and lists it by its host only", async () => {
    expect((await load()).sources).toEqual([]);
    const secret = `${origin}/good/private-abc123def/basic.ics`;
    const added = await add("Work", secret);
    expect(added).toMatchObject({
      status: 200,
      intent: "add-source",
      ok: true,
      message: "Calendar added. Read: 3 busy times",
    });
    // The form starts again empty after an add.
    expect(added.add?.initialValue ?? {}).not.toHaveProperty("url");
    const page = await load();
    expect(page.sources).toEqual([
      {
        id: expect.any(String),
        kind: "ics",
        label: "Work",
        host: new URL(origin).host,
        busyCount: 3,
        syncedAt: expect.any(String),
        error: null,
        errorAt: null,
      },
    ]);
    // The secret part of the address never reaches the page.
    expect(JSON.stringify(page)).not.toContain("private-abc123def");
  });

  it("a feed answering a web page is added with its error shown; one that turns into one keeps its busy times", async () => {
    const page = await add("Phone", `${origin}/page/basic.ics`);
    expect(page).toMatchObject({
      status: 200,
      ok: false,
      message:
        "Calendar added, but it could not be read: The feed answered with a web page, not a calendar (copy the secret address in iCal format)",
    });
    expect((await load()).sources[0]).toMatchObject({
      label: "Phone",
      busyCount: 0,
      syncedAt: null,
      error: "The feed answered with a web page, not a calendar (copy the secret address in iCal format)",
      errorAt: expect.any(String),
    });

    await add("Work", `${origin}/good/basic.ics`);
    mode = "page";
    const work = (await load()).sources.find((s) => s.label === "Work")!;
    const checked = await post({ intent: `check-source:${work.id}` });
    expect(checked).toMatchObject({
      status: 200,
      ok: false,
      message:
        "Could not be read: The feed answered with a web page, not a calendar (copy the secret address in iCal format)",
    });
    const after = (await load()).sources.find((s) => s.id === work.id)!;
    // Never "everything free": the busy times of its last good answer are still kept.
    expect(after).toMatchObject({ busyCount: 3, syncedAt: work.syncedAt, error: expect.stringContaining("web page") });
    expect(after.errorAt).not.toBeNull();
  });

  it("'Check now' reads the calendar again at once", async () => {
    await add("Work", `${origin}/good/basic.ics`);
    const [work] = (await load()).sources;
    events = 5;
    expect(await post({ intent: `check-source:${work.id}` })).toMatchObject({
      status: 200,
      ok: true,
      message: "Read: 5 busy times",
    });
    expect((await load()).sources[0]).toMatchObject({ busyCount: 5, error: null });
  });

  it("'Remove' removes it; a calendar removed meanwhile is said so", async () => {
    await add("Work", `${origin}/good/basic.ics`);
    const [work] = (await load()).sources;
    expect(await post({ intent: `remove-source:${work.id}` })).toMatchObject({
      status: 200,
      ok: true,
      message: "Calendar removed",
    });
    expect((await load()).sources).toEqual([]);
    for (const intent of [`remove-source:${work.id}`, `check-source:${work.id}`, "check-source:", "remove-source:x"])
      expect(await post({ intent })).toMatchObject({
        status: 404,
        ok: false,
        message: "That calendar is not there any more",
      });
  });

  it("refuses an address that is not a feed's at its field, keeping what was typed", async () => {
    for (const url of ["javascript:alert(document.cookie)", "ftp://calendar.example/basic.ics"]) {
      const refused = await add("Work", url);
      expect(refused).toMatchObject({ status: 400, intent: "add-source", ok: false });
      expect(refused.add?.error).toEqual({ url: ["The feed's address must start with https:// (or http://)"] });
      expect(refused.add?.initialValue).toMatchObject({ label: "Work", url });
    }
    const empty = await add("Work", "");
    expect(empty.add?.error).toEqual({ url: ["Paste your calendar's secret iCal address"] });
    const long = await add("x".repeat(81), `${origin}/good/basic.ics`);
    expect(long.add?.error).toEqual({ label: ["Please keep the name under 80 characters"] });
    expect((await load()).sources).toEqual([]);
  });

  it("is for admins only: a signed-in buyer and a visitor are sent to /templates, and nothing changes", async () => {
    await add("Work", `${origin}/good/basic.ics`);
    const [work] = (await load()).sources;
    const buyer = await cookieFor("buyer@example.com", false);
    for (const cookie of [buyer, ""]) {
      for (const fields of [
        { intent: "add-source", label: "Mine", url: `${origin}/good/basic.ics` } as Record<string, string>,
        { intent: "add-caldav", label: "Mine", url: `${origin}/dav/`, username: "me", password: "pw" },
        { intent: `remove-source:${work.id}` },
        { intent: `check-source:${work.id}` },
        { intent: "new-feed-address" },
      ])
        expect(await post(fields, cookie)).toEqual({ status: 302, location: "/templates" });
      await expect(load(cookie)).rejects.toMatchObject({ status: 302 });
    }
    expect((await load()).sources.map((s) => s.label)).toEqual(["Work"]);
  });
});

describe.skipIf(radicaleSkipped)("Add a CalDAV calendar", () => {
  let radicale: Radicale;
  let calendar = "";

  beforeAll(async () => {
    radicale = await startRadicale({ password: "app-pass-7Hq2-kept-secret" });
    calendar = await radicale.mkcalendar("personal");
    // Two one-hour events at 10:00 UTC, tomorrow and the day after: inside any booking window.
    const day = Math.floor(Date.now() / DAY) * DAY;
    for (const i of [1, 2]) {
      const start = day + i * DAY + 10 * 3_600_000;
      await radicale.put(
        calendar,
        `busy-${i}.ics`,
        [
          "BEGIN:VCALENDAR",
          "VERSION:2.0",
          "PRODID:-//test//caldav//EN",
          "BEGIN:VEVENT",
          `UID:caldav-${i}@test`,
          `DTSTAMP:${icsTime(day)}`,
          `DTSTART:${icsTime(start)}`,
          `DTEND:${icsTime(start + 3_600_000)}`,
          "SUMMARY:Gym",
          "END:VEVENT",
          "END:VCALENDAR",
          "",
        ].join("\r\n"),
      );
    }
  });
  afterAll(() => radicale?.close());

  const addCalDav = (fields: Record<string, string>) => post({ intent: "add-caldav", ...fields });

  it("adds a CalDAV calendar and reads it at once; its password is never sent back", async () => {
    const added = await addCalDav({
      label: "Personal",
      url: calendar,
      username: radicale.user,
      password: radicale.password,
    });
    expect(added).toMatchObject({
      status: 200,
      intent: "add-caldav",
      ok: true,
      message: "Calendar added. Read: 2 busy times",
    });
    const page = await load();
    expect(page.sources).toEqual([
      {
        id: expect.any(String),
        kind: "caldav",
        label: "Personal",
        host: new URL(radicale.origin).host,
        busyCount: 2,
        syncedAt: expect.any(String),
        error: null,
        errorAt: null,
      },
    ]);
    // The password reaches neither the answer nor the page's data.
    expect(JSON.stringify(added)).not.toContain(radicale.password);
    expect(JSON.stringify(page)).not.toContain(radicale.password);
    // "Check now" reads it again.
    expect(await post({ intent: `check-source:${page.sources[0].id}` })).toMatchObject({
      ok: true,
      message: "Read: 2 busy times",
    });
  });

  it("refuses a missing password at its field, keeping the rest of what was typed", async () => {
    const typed = { label: "Personal", url: calendar, username: radicale.user };
    const refused = await addCalDav({ ...typed, password: "" });
    expect(refused).toMatchObject({ status: 400, intent: "add-caldav", ok: false });
    expect(refused.add?.error).toEqual({ password: ["Enter an app password for this calendar"] });
    expect(refused.add?.initialValue).toMatchObject(typed);
    const noUser = await addCalDav({ ...typed, username: "", password: radicale.password });
    expect(noUser.add?.error).toEqual({ username: ["Enter the user name of your calendar account"] });
    // Typed, but never sent back.
    expect(noUser.add?.initialValue).not.toHaveProperty("password");
    expect(JSON.stringify(noUser)).not.toContain(radicale.password);
    expect((await load()).sources).toEqual([]);
  });

  it("a password the server refuses (401) is said at its field, and the calendar is not added", async () => {
    const typed = { label: "Personal", url: calendar, username: radicale.user };
    const refused = await addCalDav({ ...typed, password: "mistyped-app-pass" });
    expect(refused).toMatchObject({
      status: 400,
      ok: false,
      message: "The calendar was not added: The CalDAV server refused the user name or app password (401)",
    });
    expect(refused.add?.error).toEqual({
      password: ["The CalDAV server refused the user name or app password (401)"],
    });
    expect(refused.add?.initialValue).toMatchObject(typed);
    expect(JSON.stringify(refused)).not.toContain("mistyped-app-pass");
    expect((await load()).sources).toEqual([]);
  });
});

describe("Your calls in your calendar app", () => {
  it("shows the feed's address; 'Make a new address' replaces it and the old one answers 404", async () => {
    const before = (await load()).feedUrl;
    expect(before).toMatch(/^https:\/\/studio\.test\/calendar\/[\w-]{40,}\.ics$/);
    // The same address at every visit until a new one is made.
    expect((await load()).feedUrl).toBe(before);
    const old = await feed(before);
    expect(old.status).toBe(200);
    expect(old.text).toContain("BEGIN:VCALENDAR");

    expect(await post({ intent: "new-feed-address" })).toMatchObject({
      status: 200,
      intent: "new-feed-address",
      ok: true,
      message: "New address made: the old one no longer works",
    });
    const after = (await load()).feedUrl;
    expect(after).not.toBe(before);
    expect(await feed(before)).toEqual({ status: 404, text: "Not found" });
    expect((await feed(after)).status).toBe(200);
  });
});
