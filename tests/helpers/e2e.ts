import path from "node:path";
import Database from "better-sqlite3";

/** The data folder of the server under test. */
export function e2eDataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set (run through playwright.config.ts)");
  return dir;
}

/** Runs a query against the app database of the server under test. */
export function e2eQuery<T = Record<string, unknown>>(sqlText: string, ...params: unknown[]): T[] {
  return queryDataDir<T>(e2eDataDir(), sqlText, ...params);
}

/** Runs a query against the app database in `dataDir` (a read answers its rows). */
export function queryDataDir<T = Record<string, unknown>>(dataDir: string, sqlText: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dataDir, "app.db"), { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    const stmt = db.prepare(sqlText);
    if (!stmt.reader) {
      stmt.run(...params);
      return [];
    }
    return stmt.all(...params) as T[];
  } finally {
    db.close();
  }
}

import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import type { BrowserContext, Page } from "@playwright/test";

export const E2E_SECRET = "e2e-secret-0123456789abcdef0123456789abcdef";
/** The server under test verifies Calendly webhooks with this key (CALENDLY_WEBHOOK_SIGNING_KEY). */
export const CALENDLY_E2E_SIGNING_KEY = "calendly-e2e-signing-key";

function rw<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(e2eDataDir(), "app.db"), { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * Signs the browser context in as `email` by creating a session row and its cookie
 * (DESIGN.md §4.8); `role` adds the admin_users row.
 */
export async function signInAs(context: BrowserContext, email: string, role: "buyer" | "admin" | "super" = "buyer") {
  const baseURL = `http://localhost:${process.env.E2E_PORT}`;
  const { userId, sessionId } = rw((db) => {
    db.prepare("insert or ignore into users (id, email) values (?, ?)").run(crypto.randomUUID(), email);
    const user = db.prepare("select id from users where email = ?").get(email) as { id: string };
    if (role !== "buyer") {
      db.prepare("insert or replace into admin_users (id, is_super_admin) values (?, ?)").run(
        user.id,
        role === "super" ? 1 : 0,
      );
    }
    const sid = crypto.randomBytes(24).toString("base64url");
    db.prepare("insert into sessions (id, user_id, data, expires_at) values (?, ?, ?, ?)").run(
      sid,
      user.id,
      JSON.stringify({ userId: user.id }),
      new Date(Date.now() + 86400_000).toISOString(),
    );
    return { userId: user.id, sessionId: sid };
  });
  const header = await createCookie("__studio_session", { secrets: [E2E_SECRET] }).serialize(sessionId);
  const value = header.split(";")[0].split("=").slice(1).join("=");
  await context.addCookies([{ name: "__studio_session", value, url: baseURL }]);
  return { userId, sessionId };
}

/** The newest magic link mailed to `email`. */
export function latestMagicLink(email: string): string {
  const row = e2eQuery<{ text_body: string }>(
    "select text_body from email_outbox where to_email = ? order by id desc limit 1",
    email,
  )[0];
  const m = row?.text_body.match(/https?:\/\/\S+\/auth\/callback\?\S+/);
  if (!m) throw new Error(`no magic link for ${email}`);
  return m[0];
}

/** Waits until the page's JavaScript has taken over (root sets data-hydrated). */
export const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor();

/**
 * Waits until the page has loaded and its main thread has nothing left to run: an idle callback
 * is called only once the tasks queued before it (React's scheduled work, a late hydration, an
 * injected script, a dialog) have run. For "nothing happened" checks, instead of a fixed wait.
 */
export async function settled(page: Page) {
  await page.waitForLoadState("load");
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}

/**
 * Records the bodies of the booking confirms the page posts (`intent=confirm`), from now on: a
 * confirm the page should not have sent shows as an extra or empty one once the real one is in.
 */
export function recordConfirms(page: Page): string[] {
  const confirms: string[] = [];
  page.on("request", (r) => {
    const body = r.method() === "POST" ? (r.postData() ?? "") : "";
    if (new URLSearchParams(body).get("intent") === "confirm") confirms.push(body);
  });
  return confirms;
}

/** The local fakes of Stripe, SendGrid and Calendly (tests/helpers/fakes.mjs). */
export const fakes = () => `http://127.0.0.1:${process.env.E2E_FAKES_PORT}`;

/** /packages with JavaScript running and the tier chosen in the calculator. */
export async function packagesWithTier(page: Page, tier: "Essentials" | "Growth" | "Custom") {
  await page.goto("/packages");
  await hydrated(page);
  await page
    .getByRole("radio", { name: new RegExp(tier) })
    .first()
    .check();
}
