import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getSessionUser } from "../../server/http/session.server";
import { consumeMagicLink } from "../../server/auth/email-signin.server";
import {
  issueMagicNonce,
  LIMIT_PER_EMAIL_PER_HOUR,
  OPERATOR_LIMIT_PER_EMAIL_PER_HOUR,
} from "../../server/auth/magic-link.server";
import { db } from "../../server/db.server";
import { migrateToLatest } from "../../server/db/db.server";
import { env } from "../../server/env.server";
import { cli } from "../helpers/cli";
import { log as serverLog } from "../../server/log.server";

const APP_URL = "http://localhost:3000";

const LINE = /^Sign-in link for (\S+) \(valid 10 minutes, single use\): (\S+)$/;

/** The callback route's POST, as the "Continue" button sends the token. */
async function postCallback(token: string, cookie = "") {
  const callback = await import("../../app/routes/auth.callback");
  const request = new Request(`${APP_URL}/auth/callback`, {
    method: "POST",
    body: new URLSearchParams({ token }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
  try {
    return (await callback.action({ request, params: {}, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

beforeAll(async () => {
  await migrateToLatest(db());
});

afterEach(() => {
  vi.useRealTimers();
});

describe("admin login-link EMAIL", () => {
  it("refuses an address that is not an admin (exit 1), and makes no link", async () => {
    await cli("admin", "grant", "buyer-turned@example.com");
    await cli("admin", "revoke", "buyer-turned@example.com");
    for (const email of ["nobody@example.com", "buyer-turned@example.com"]) {
      const r = await cli("admin", "login-link", email);
      expect(r).toEqual({ code: 1, out: "", err: `${email} is not an admin` });
    }
    const tokens = await db().selectFrom("auth_tokens").selectAll().where("client_key", "=", "cli").execute();
    expect(tokens).toEqual([]);
  });

  it("prints a link the site's callback accepts once, opening the console, with no email sent", async () => {
    expect((await cli("admin", "grant", "owner@example.com", "--super")).code).toBe(0);
    const r = await cli("admin", "login-link", "Owner@Example.com");
    expect(r.code).toBe(0);
    const [, email, link] = LINE.exec(r.out)!;
    expect(email).toBe("owner@example.com");
    const url = new URL(link);
    expect(url.origin).toBe(env().APP_URL);
    expect(url.pathname).toBe("/auth/callback");
    const token = url.searchParams.get("token")!;
    expect(token).toBeTruthy();

    const row = await db()
      .selectFrom("auth_tokens")
      .selectAll()
      .where("email", "=", "owner@example.com")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ client_key: "cli", redirect_to: "/admin", used_at: null });
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(10 * 60 * 1000);
    expect(await db().selectFrom("email_outbox").selectAll().execute()).toEqual([]);

    const first = await postCallback(token);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/admin");
    const cookie = first.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c.startsWith("__studio_session="))!;
    const user = await getSessionUser(new Request(`${APP_URL}/admin`, { headers: { Cookie: cookie } }));
    expect(user).toMatchObject({ email: "owner@example.com", isAdmin: true, isSuperAdmin: true });

    // Single use: the same link again is refused.
    vi.spyOn(serverLog, "warn").mockImplementation(() => {});
    const second = await postCallback(token);
    expect(second.headers.get("Location")).toBe("/templates?error=auth_failed");
  });

  it("expires after 10 minutes", async () => {
    await cli("admin", "grant", "late@example.com");
    const r = await cli("admin", "login-link", "late@example.com");
    const token = new URL(LINE.exec(r.out)![2]).searchParams.get("token")!;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * 60 * 1000 + 1000);
    vi.spyOn(serverLog, "warn").mockImplementation(() => {});
    vi.spyOn(serverLog, "error").mockImplementation(() => {});
    expect(await consumeMagicLink(token, env().APP_URL)).toBeNull();
    vi.useRealTimers();
    // Still unused: it was refused, not spent.
    const row = await db()
      .selectFrom("auth_tokens")
      .select("used_at")
      .where("email", "=", "late@example.com")
      .executeTakeFirstOrThrow();
    expect(row.used_at).toBeNull();
  });

  it("cannot be blocked from the web: five web requests for the admin's address leave the operator's link working (issue 40.4)", async () => {
    await cli("admin", "grant", "blocked@example.com");
    // Anyone can ask the sign-in form for the admin's link, from anywhere: here five times.
    for (let i = 0; i < LIMIT_PER_EMAIL_PER_HOUR; i++)
      await issueMagicNonce(db(), { email: "blocked@example.com", clientKey: `198.51.100.${i}`, redirectTo: null });
    await expect(
      issueMagicNonce(db(), { email: "blocked@example.com", clientKey: "198.51.100.99", redirectTo: null }),
    ).rejects.toThrow(/Too many sign-in links/);
    const r = await cli("admin", "login-link", "blocked@example.com");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(LINE);
  });

  it("does not use up the web's limit, and keeps a limit of its own (10 an hour per address)", async () => {
    await cli("admin", "grant", "busy@example.com");
    for (let i = 0; i < OPERATOR_LIMIT_PER_EMAIL_PER_HOUR; i++)
      expect((await cli("admin", "login-link", "busy@example.com")).code).toBe(0);
    const refused = await cli("admin", "login-link", "busy@example.com");
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/Too many sign-in links/);
    // The web's requests for the address are still counted from zero.
    await issueMagicNonce(db(), { email: "busy@example.com", clientKey: "198.51.100.7", redirectTo: null });
  });

  it("is in the usage", async () => {
    const r = await cli("admin", "login-link");
    expect(r.code).toBe(2);
    expect(r.err).toContain("npm run admin -- login-link EMAIL");
  });
});
