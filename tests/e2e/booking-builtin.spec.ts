import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { steps2to4 } from "../helpers/booking-e2e";
import { startOwnServer, type OwnServer } from "../helpers/own-server";

/**
 * Issue 43: the call booked in the studio's own calendar. The owner switches Settings → Calendar to
 * Built-in in the console; the owner's calendar says they are busy at the first free time; a
 * visitor (JavaScript on, and off) books the first free time of that day, which is gone for the
 * next visitor, then moves and cancels the call through the emailed link; two visitors confirming
 * one time at once make one booking; the owner's feed lists the call. At 1280 and 390 px.
 */

/** The owner's calendar, published as a secret iCal address: one event, set by the test. */
let feedText = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//e2e//EN\r\nEND:VCALENDAR\r\n";
const feedServer = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "text/calendar; charset=utf-8" });
  res.end(feedText);
});
test.beforeAll(async () => {
  if (!feedServer.listening) await new Promise<void>((r) => feedServer.listen(0, "127.0.0.1", r));
});
test.afterAll(() => {
  feedServer.close();
});
const feedAddress = () => `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/work.ics`;
const icsTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
function busyAt(start: number, end: number) {
  feedText = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//e2e//EN",
    "BEGIN:VEVENT",
    "UID:busy-1@e2e",
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${icsTime(start)}`,
    `DTEND:${icsTime(end)}`,
    "SUMMARY:Dentist",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/** The owner adds their calendar's secret address in Settings → Calendar; it is read at once. */
async function addOwnersCalendar(browser: Browser, server: OwnServer): Promise<string> {
  const context = await browser.newContext();
  await server.signInAdmin(context, OWNER);
  const page = await context.newPage();
  await page.goto(`${server.url}/admin/settings?section=calendar`);
  // "Add a calendar" (a secret iCal address), not "Add a CalDAV calendar" below it.
  const add = page.getByRole("form", { name: "Add a calendar", exact: true });
  await add.getByLabel("Name", { exact: true }).fill("Work");
  await add.getByLabel("Secret iCal address").fill(feedAddress());
  await add.getByRole("button", { name: "Add calendar" }).click();
  await expect(page.getByText(/Calendar added\. Read: 1 busy time/).first()).toBeVisible();
  const list = page.getByRole("list", { name: "Your calendars" });
  await expect(list.getByText("Work", { exact: true })).toBeVisible();
  const feedUrl = await page.locator("#calendar-feed-url").inputValue();
  await context.close();
  return feedUrl;
}

const OWNER = "owner@studio.example";
const TAKEN = "That time was just taken, please pick another";
const unique = (what: string) => `${what}-${Date.now()}-${crypto.randomBytes(3).toString("hex")}@example.com`;

/** The owner, in the console, books calls with the built-in calendar from now on. */
async function switchToBuiltin(browser: Browser, server: OwnServer) {
  const context = await browser.newContext();
  await server.signInAdmin(context, OWNER);
  const page = await context.newPage();
  await page.goto(`${server.url}/admin/settings?section=calendar`);
  // The card is the choice's label: a tap anywhere on it picks it.
  await page.locator("label", { hasText: /^Built-in$/ }).click();
  await expect(page.getByRole("radio", { name: /Built-in/ })).toBeChecked();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved", { exact: true }).first()).toBeVisible();
  await context.close();
}

/** Steps 1 to 5 as a visitor, then step 6. */
async function toTimes(page: Page, base: string, email: string, name = "Ada Lovelace") {
  await page.goto(`${base}/booking`);
  await page.getByRole("radio", { name: /Growth/ }).check();
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Company").fill("Analytical Engines");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=2/);
  await steps2to4(page);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=5/);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=6/);
  await expect(page.getByRole("heading", { name: "Pick a time for your call" })).toBeVisible();
}

/** The times offered on the page, as ISO instants, in order. */
const offered = (page: Page) =>
  page.locator('input[name="slot"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));

for (const width of [1280, 390]) {
  for (const js of [true, false]) {
    test.describe(`the built-in calendar at ${width} px, JavaScript ${js ? "on" : "off"}`, () => {
      test.use({ viewport: { width, height: width === 390 ? 844 : 900 }, javaScriptEnabled: js });
      let server: OwnServer;
      test.beforeAll(async ({ browser }) => {
        // The studio's zone is London; the browser's is New York (JavaScript shows times there).
        server = await startOwnServer({ env: { STUDIO_TIMEZONE: "Europe/London" } });
        await switchToBuiltin(browser, server);
      });
      test.afterAll(async () => {
        await server?.stop();
      });
      test.use({ timezoneId: "America/New_York" });

      test("a visitor books the first free time of a day with a busy event; the next visitor is not offered it", async ({
        page,
        browser,
      }, testInfo) => {
        test.setTimeout(120_000);
        const email = unique("builtin");
        await toTimes(page, server.url, email, "Grace Hopper");
        // JavaScript shows the browser's zone; without it the studio's, with a select to change it.
        const zone = page.getByLabel("Your time zone");
        await expect(zone).toHaveValue(js ? "America/New_York" : "Europe/London");
        await expect(
          page.getByText(js ? /Times are shown in America\/New York/ : /Times are shown in Europe\/London/),
        ).toBeVisible();
        const before = await offered(page);
        expect(before.length).toBeGreaterThan(0);
        // The owner's calendar: busy at the first time of a day that offers the next one too (a day
        // whose first time is its last would not show "the first free time after it"); the owner
        // adds the calendar in the console.
        const studioDay = (iso: string) => new Date(iso).toLocaleDateString("en-CA", { timeZone: "Europe/London" });
        const busyIso = before.find(
          (t, i) =>
            (i === 0 || studioDay(before[i - 1]) !== studioDay(t)) &&
            before.includes(new Date(Date.parse(t) + 30 * 60_000).toISOString()),
        )!;
        const busy = Date.parse(busyIso);
        busyAt(busy, busy + 30 * 60_000);
        const feedUrl = await addOwnersCalendar(browser, server);
        await page.reload();
        const times = await offered(page);
        expect(times).not.toContain(busyIso);
        // The first free time of that day: right after the busy event.
        const pick = new Date(busy + 30 * 60_000).toISOString();
        const thatDay = (list: string[]) => list.filter((t) => studioDay(t) === studioDay(busyIso));
        expect(thatDay(times)[0]).toBe(pick);
        if (!js) {
          // Without JavaScript the zone select and its button show the times in another zone.
          await zone.selectOption("America/New_York");
          await page.getByRole("button", { name: "Show times" }).click();
          await expect(page.getByText(/Times are shown in America\/New York/)).toBeVisible();
          expect(thatDay(await offered(page))[0]).toBe(pick);
        }
        await page.screenshot({
          path: testInfo.outputPath(`step6-${width}-${js ? "js" : "nojs"}.png`),
          fullPage: true,
        });
        await page.locator(`input[name="slot"][value="${pick}"]`).check();
        await page.getByRole("button", { name: "Confirm booking" }).click();
        await expect(page).toHaveURL(/\/booking\/success/);
        const [booking] = server.query<{ id: string; meeting_start_at: string; invitee_timezone: string }>(
          "select id, meeting_start_at, invitee_timezone from bookings where email = ?",
          email,
        );
        expect(booking.meeting_start_at).toBe(pick);
        expect(booking.invitee_timezone).toBe("America/New_York");

        // The next visitor is not offered that time.
        const next = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: js });
        const other = await next.newPage();
        await toTimes(other, server.url, unique("next"));
        expect(await offered(other)).not.toContain(pick);
        await next.close();

        // The owner's calendar app subscribes to the feed: the call is in it.
        const feed = await (await fetch(feedUrl)).text();
        expect(feed).toContain(`UID:booking-${booking.id}@`);
        expect(feed).toContain("SUMMARY:Consultation: Grace Hopper (Analytical Engines)");

        // The confirmation's link: the client moves the call, then cancels it.
        const [mail] = server.query<{ text_body: string }>(
          "select text_body from email_outbox where to_email = ? and subject like 'Your consultation request%'",
          email,
        );
        const link = /(http:\/\/\S+\/call\/\S+)/.exec(mail.text_body)![1];
        await page.goto(link);
        await expect(page.getByRole("heading", { level: 1, name: "Your call" })).toBeVisible();
        const later = (await offered(page)).find((t) => Date.parse(t) > Date.parse(pick) + 86_400_000)!;
        await page.locator(`input[name="slot"][value="${later}"]`).check();
        await page.getByRole("button", { name: "Move my call" }).click();
        await expect(page.getByText("Your call has moved. We have emailed you the new time")).toBeVisible();
        expect(
          server.query<{ meeting_start_at: string; meeting_sequence: number }>(
            "select meeting_start_at, meeting_sequence from bookings where id = ?",
            booking.id,
          )[0],
        ).toEqual({ meeting_start_at: later, meeting_sequence: 1 });
        await page.screenshot({ path: testInfo.outputPath(`call-${width}-${js ? "js" : "nojs"}.png`), fullPage: true });
        await page.getByRole("button", { name: "Cancel my call" }).click();
        await expect(page.getByRole("heading", { level: 1, name: "Your call is cancelled" })).toBeVisible();
        await expect(page.getByRole("link", { name: "Book another time" })).toBeVisible();
        // The feed now says so, and the time is free again.
        expect(await (await fetch(feedUrl)).text()).toContain("STATUS:CANCELLED");
      });

      test("two visitors confirming one time at once make one booking; the other is told and picks again", async ({
        browser,
      }) => {
        test.setTimeout(90_000);
        const contexts = await Promise.all(
          [0, 1].map(() => browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: js })),
        );
        const pages = await Promise.all(contexts.map((c) => c.newPage()));
        const emails = [unique("race-a"), unique("race-b")];
        for (const [i, p] of pages.entries()) await toTimes(p, server.url, emails[i], `Racer ${i}`);
        const slot = (await offered(pages[0]))[0];
        for (const p of pages) await p.locator(`input[name="slot"][value="${slot}"]`).check();
        await Promise.all(pages.map((p) => p.getByRole("button", { name: "Confirm booking" }).click()));
        await Promise.all(
          pages.map((p) =>
            expect(p.getByText(TAKEN).or(p.getByRole("heading", { name: /all set|Thanks/i }))).toBeVisible(),
          ),
        );
        const holders = server.query<{ email: string }>(
          "select email from bookings where meeting_start_at = ? and meeting_status = 'scheduled'",
          slot,
        );
        expect(holders).toHaveLength(1);
        const loser = pages[emails.indexOf(holders[0].email) === 0 ? 1 : 0];
        await expect(loser.getByText(TAKEN)).toBeVisible();
        // Fresh times, without the one taken; every answer kept: the loser books another.
        const fresh = await offered(loser);
        expect(fresh).not.toContain(slot);
        await loser.locator(`input[name="slot"][value="${fresh[0]}"]`).check();
        await loser.getByRole("button", { name: "Confirm booking" }).click();
        await expect(loser).toHaveURL(/\/booking\/success/);
        await Promise.all(contexts.map((c) => c.close()));
      });
    });
  }
}

test.describe("the owner moves and cancels a call in the console", () => {
  let server: OwnServer;
  test.beforeAll(async ({ browser }) => {
    server = await startOwnServer({ env: { STUDIO_TIMEZONE: "Europe/London" } });
    await switchToBuiltin(browser, server);
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  for (const width of [1280, 390]) {
    test(`at ${width} px: Move call, then Cancel call, each with its toast and the client told`, async ({
      browser,
    }, testInfo) => {
      test.setTimeout(90_000);
      const visitor = await browser.newContext();
      const page = await visitor.newPage();
      const email = unique(`console-${width}`);
      await toTimes(page, server.url, email, "Console Client");
      const [first] = await offered(page);
      await page.locator(`input[name="slot"][value="${first}"]`).check();
      await page.getByRole("button", { name: "Confirm booking" }).click();
      await expect(page).toHaveURL(/\/booking\/success/);
      await visitor.close();
      const [booking] = server.query<{ id: string }>("select id from bookings where email = ?", email);

      const ownerContext = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
      await server.signInAdmin(ownerContext, OWNER);
      const console_ = await ownerContext.newPage();
      await console_.goto(`${server.url}/admin?tab=bookings&booking=${booking.id}`);
      const dialog = console_.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: "Change the call" })).toBeVisible();
      // The picker opens in the browser: a click before the console hydrates does nothing.
      await console_.locator("html[data-hydrated]").waitFor();
      await dialog.getByRole("button", { name: "Move call" }).click();
      const select = dialog.getByLabel("New time (your time zone)");
      await expect(select).toBeVisible();
      const options = await select
        .locator("option")
        .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value).filter(Boolean));
      expect(options).not.toContain(first);
      await select.selectOption(options[3]);
      await console_.screenshot({ path: testInfo.outputPath(`console-move-${width}.png`) });
      await dialog.getByRole("button", { name: "Move", exact: true }).click();
      await expect(
        console_.getByText("Call moved: the client has the new time and an updated invitation"),
      ).toBeVisible();
      expect(
        server.query<{ meeting_start_at: string }>("select meeting_start_at from bookings where id = ?", booking.id)[0],
      ).toEqual({ meeting_start_at: options[3] });
      await dialog.getByRole("button", { name: "Cancel call" }).click();
      await dialog.getByRole("button", { name: "Yes, cancel the call" }).click();
      await expect(console_.getByText("Call cancelled: the client was told")).toBeVisible();
      expect(
        server.query<{ meeting_status: string }>("select meeting_status from bookings where id = ?", booking.id)[0],
      ).toEqual({ meeting_status: "cancelled" });
      const told = server.query<{ subject: string }>(
        "select subject from email_outbox where to_email = ? order by id",
        email,
      );
      expect(told.map((m) => m.subject)).toEqual(
        expect.arrayContaining([expect.stringContaining("has moved"), expect.stringContaining("is cancelled")]),
      );
      await ownerContext.close();
    });
  }
});
