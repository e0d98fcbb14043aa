import { expect, type Page } from "@playwright/test";
import zlib from "node:zlib";

export const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString().slice(0, 10);

/** A 1×1 PNG: real signature, accepted by the server's content check. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

/** A PNG-signed file of exactly `bytes` bytes (a real logo's size). */
export function pngOfSize(bytes: number): Buffer {
  return Buffer.concat([PNG, Buffer.alloc(Math.max(0, bytes - PNG.length), 7)]);
}

export const MB = 1024 * 1024;

export async function step1(page: Page, email: string, pkg = "Growth") {
  await page.getByRole("radio", { name: new RegExp(pkg) }).check();
  await page.getByLabel("Your name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Company").fill("Analytical Engines");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=2/);
}

/** Steps 2 and 3, then fills step 4 (without pressing Next). */
export async function steps2to4(page: Page) {
  await page.getByLabel("This is a new site").check();
  await page.getByRole("radio", { name: "Lead Generation" }).check();
  await page.getByLabel("Who is your target audience?").fill("Founders of early-stage B2B companies");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=3/);
  await page.getByLabel("Inspiration website 1").fill("https://linear.app");
  await page.getByLabel("Must-have features").fill("Case studies, a contact form and a blog");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=4/);
  await page.getByLabel("Preferred start date").fill(inDays(30));
  await page.getByRole("radio", { name: "Strict Deadline" }).check();
}

/** A fresh visitor walked to step 5 from `from` (with JavaScript: waits for hydration on each step). */
export async function toStep5(page: Page, email: string, pkg = "Growth", from = "/booking") {
  await page.goto(from);
  await step1(page, email, pkg);
  await steps2to4(page);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=5/);
}

/** A fresh visitor walked to step 6, the review, past step 5 without files. */
export async function toStep6(page: Page, email: string, from = "/booking") {
  await toStep5(page, email, "Growth", from);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=6/);
}

/**
 * Clicks the fake calendar's "Schedule event" as a visitor would: once the calendar has loaded.
 * Until the frame's load event reaches the page, "Loading the calendar…" covers the frame; a click
 * at the button's place lands on that cover, not in the frame (Playwright's hit check looks only
 * inside the frame), and nothing is booked. The frame and its cover appear in one render, so the
 * frame is awaited first: checking the cover before it was drawn would pass at once.
 */
export async function scheduleInCalendar(page: Page) {
  const frame = page.locator('iframe[title="Schedule your free consultation"]');
  await frame.waitFor();
  const button = page
    .frameLocator('iframe[title="Schedule your free consultation"]')
    .getByRole("button", { name: "Schedule event" });
  await expect(button).toBeEnabled({ timeout: 15_000 });
  await expect(page.getByRole("status").filter({ hasText: "Loading the calendar…" })).toHaveCount(0, {
    timeout: 15_000,
  });
  // The frame is on another origin, so Chromium runs it in its own process; on a loaded host a
  // click can reach that process before it can route input, and is dropped (nothing is posted).
  // A visitor would click again: so does the test, once it has seen that no booking was posted.
  for (let attempt = 1; ; attempt++) {
    const booked = page.waitForRequest((r) => r.url().includes("/__calendly/book"), { timeout: 5_000 });
    await button.click();
    try {
      await booked;
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** A real, decodable PNG of `width`×`height`: a diagonal gradient from `from` to `to` (RGB). */
export function gradientPng(
  width: number,
  height: number,
  from: [number, number, number],
  to: [number, number, number],
) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++) rows[row + 1 + x * 3 + c] = Math.round(from[c] + (to[c] - from[c]) * t);
    }
  }
  return Buffer.concat([
    PNG.subarray(0, 8),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
