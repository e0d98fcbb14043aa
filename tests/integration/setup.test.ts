import crypto from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { sql } from "kysely";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getSessionUser } from "../../server/http/session.server";
import { grantAdmin } from "../../server/auth/users.server";
import { db } from "../../server/db.server";
import { migrateToLatest } from "../../server/db/db.server";
import {
  announceSetupLink,
  completeSetup,
  issueSetupToken,
  saveStudioName,
  SETUP_TOKEN_TTL_MS,
  setupTokenState,
} from "../../server/admin/setup.server";
import { freshDb, type TestDb } from "../helpers/db";

const HOUR = 60 * 60 * 1000;
const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

const studioRow = (t: TestDb) =>
  t.db.selectFrom("studio_settings").selectAll().where("section", "=", "studio").executeTakeFirst();
const adminRows = (t: TestDb) =>
  t.db
    .selectFrom("admin_users")
    .innerJoin("users", "users.id", "admin_users.id")
    .select(["users.email", "admin_users.is_super_admin"])
    .execute();
const catalogueVersion = async (t: TestDb) =>
  (await t.db.selectFrom("catalogue_version").select("version").executeTakeFirstOrThrow()).version;

describe("setup tokens", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb();
  });
  afterEach(async () => {
    await t.close();
  });

  it("are 256 random bits, stored only as their sha256, valid 24 hours", async () => {
    const now = new Date("2026-12-01T10:00:00.000Z");
    const token = (await issueSetupToken(t.db, now))!;
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const rows = await t.db.selectFrom("setup_tokens").selectAll().execute();
    expect(rows).toEqual([
      {
        token_hash: sha256(token),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 24 * HOUR).toISOString(),
        used_at: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("a new one replaces the unused ones; none is issued once an admin exists", async () => {
    const first = (await issueSetupToken(t.db))!;
    const second = (await issueSetupToken(t.db))!;
    expect(await setupTokenState(t.db, first)).toBe("unknown");
    expect(await setupTokenState(t.db, second)).toBe("live");
    await grantAdmin(t.db, "someone@example.com");
    expect(await issueSetupToken(t.db)).toBeNull();
  });

  it("at boot, prints one line with APP_URL/setup?token=… while there is no admin", async () => {
    const lines: string[] = [];
    const link = await announceSetupLink(t.db, "https://studio.example", (l) => lines.push(l));
    expect(lines).toEqual([`[setup] No admin yet. Open this link within 24 hours to set up your studio: ${link}`]);
    const url = new URL(link!);
    expect(url.origin + url.pathname).toBe("https://studio.example/setup");
    expect(await setupTokenState(t.db, url.searchParams.get("token")!)).toBe("live");
    await grantAdmin(t.db, "owner@example.com");
    expect(await announceSetupLink(t.db, "https://studio.example", (l) => lines.push(l))).toBeNull();
    expect(lines).toHaveLength(1);
  });

  it("using one makes the super admin, names the studio and drops cached pages, in one go", async () => {
    const token = (await issueSetupToken(t.db))!;
    const before = await catalogueVersion(t);
    const done = await completeSetup(t.db, { token, studioName: "Atelier Nord", email: "Owner@Example.com" });
    expect(done?.email).toBe("owner@example.com");
    expect(await adminRows(t)).toEqual([{ email: "owner@example.com", is_super_admin: 1 }]);
    const row = await studioRow(t);
    expect(JSON.parse(row!.data)).toEqual({ name: "Atelier Nord" });
    expect(row).toMatchObject({ sample: 1, updated_by: "owner@example.com" });
    expect(await catalogueVersion(t)).toBe(before + 1);
    const used = await t.db.selectFrom("setup_tokens").select("used_at").executeTakeFirstOrThrow();
    expect(used.used_at).not.toBeNull();
  });

  it("works once", async () => {
    const token = (await issueSetupToken(t.db))!;
    expect(await completeSetup(t.db, { token, studioName: "First", email: "a@example.com" })).not.toBeNull();
    expect(await setupTokenState(t.db, token)).toBe("dead");
    // Even if the first admin left, a used link stays used.
    await t.db.deleteFrom("admin_users").execute();
    expect(await completeSetup(t.db, { token, studioName: "Second", email: "b@example.com" })).toBeNull();
    expect(JSON.parse((await studioRow(t))!.data)).toEqual({ name: "First" });
    expect(await adminRows(t)).toEqual([]);
  });

  it("expires after 24 hours", async () => {
    const issued = new Date("2026-12-01T10:00:00.000Z");
    const token = (await issueSetupToken(t.db, issued))!;
    const justBefore = new Date(issued.getTime() + SETUP_TOKEN_TTL_MS - 1000);
    const justAfter = new Date(issued.getTime() + SETUP_TOKEN_TTL_MS + 1000);
    expect(await setupTokenState(t.db, token, justBefore)).toBe("live");
    expect(await setupTokenState(t.db, token, justAfter)).toBe("dead");
    expect(await completeSetup(t.db, { token, studioName: "Late", email: "late@example.com" }, justAfter)).toBeNull();
    expect(await adminRows(t)).toEqual([]);
    expect(
      await completeSetup(t.db, { token, studioName: "In time", email: "ok@example.com" }, justBefore),
    ).not.toBeNull();
  });

  it("is dead once any admin exists, checked when it is used", async () => {
    const token = (await issueSetupToken(t.db))!;
    // An admin made after the link was printed (e.g. `studio admin grant`).
    await grantAdmin(t.db, "operator@example.com");
    expect(await setupTokenState(t.db, token)).toBe("dead");
    expect(await completeSetup(t.db, { token, studioName: "Hijack", email: "mallory@example.com" })).toBeNull();
    expect(await adminRows(t)).toEqual([{ email: "operator@example.com", is_super_admin: 0 }]);
    expect(await studioRow(t)).toBeUndefined();
    expect(await t.db.selectFrom("users").select("email").where("email", "=", "mallory@example.com").execute()).toEqual(
      [],
    );
  });

  it("a failure on the way leaves no admin, no user and the token unused", async () => {
    const token = (await issueSetupToken(t.db))!;
    await sql`create trigger refuse_settings before insert on studio_settings
      begin select raise(abort, 'disk said no'); end`.execute(t.db);
    await expect(completeSetup(t.db, { token, studioName: "Atelier", email: "owner@example.com" })).rejects.toThrow(
      /disk said no/,
    );
    expect(await adminRows(t)).toEqual([]);
    expect(await t.db.selectFrom("users").selectAll().execute()).toEqual([]);
    expect((await t.db.selectFrom("setup_tokens").select("used_at").executeTakeFirstOrThrow()).used_at).toBeNull();
    await sql`drop trigger refuse_settings`.execute(t.db);
    expect(await completeSetup(t.db, { token, studioName: "Atelier", email: "owner@example.com" })).not.toBeNull();
  });

  it("saving the name keeps the section's other fields and its sample mark", async () => {
    await t.db
      .insertInto("studio_settings")
      .values({ section: "studio", data: JSON.stringify({ name: "Old", tagline: "Sites" }), sample: 0 })
      .execute();
    await t.db.transaction().execute((trx) => saveStudioName(trx, "New", "owner@example.com"));
    const row = await studioRow(t);
    expect(JSON.parse(row!.data)).toEqual({ name: "New", tagline: "Sites" });
    expect(row).toMatchObject({ sample: 0, updated_by: "owner@example.com" });
  });
});

/** The route (loader and action) on this test process's own database. */
describe("/setup", () => {
  const BASE = "http://localhost:3000";
  type Answer = { status: number; location?: string | null; cookie?: string; data?: Record<string, unknown> };

  async function answer(run: () => Promise<unknown>): Promise<Answer> {
    let res: unknown;
    try {
      res = await run();
    } catch (thrown) {
      res = thrown;
    }
    if (res instanceof Response)
      return {
        status: res.status,
        location: res.headers.get("Location"),
        cookie: res.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .find((c) => c.startsWith("__studio_session=")),
      };
    const d = res as { init?: { status?: number }; data?: Record<string, unknown> };
    return { status: d.init?.status ?? 200, data: d.data ?? (res as Record<string, unknown>) };
  }

  const get = async (token: string) => {
    const route = await import("../../app/routes/setup");
    const request = new Request(`${BASE}/setup?token=${encodeURIComponent(token)}`);
    return answer(() => route.loader({ request, params: {}, context: {} }) as Promise<unknown>);
  };
  const post = async (fields: Record<string, string>, clientIp = "198.51.100.7") => {
    const route = await import("../../app/routes/setup");
    const request = new Request(`${BASE}/setup?token=${encodeURIComponent(fields.token ?? "")}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    return answer(() => route.action({ request, params: {}, context: { clientIp } }) as Promise<unknown>);
  };

  beforeAll(async () => {
    await migrateToLatest(db());
  });
  beforeEach(async () => {
    await db().deleteFrom("admin_users").execute();
    await db().deleteFrom("setup_tokens").execute();
  });

  it("shows the form for a live link; 404 for one never issued, 410 for a spent one", async () => {
    const token = (await issueSetupToken(db()))!;
    expect(await get(token)).toEqual({ status: 200, data: { live: true, token } });
    expect((await get("not-a-token")).status).toBe(404);
    expect((await get("")).status).toBe(404);
    await grantAdmin(db(), "someone@example.com");
    expect(await get(token)).toEqual({ status: 410, data: { live: false } });
  });

  it("refuses a bad form with 400, the messages and what was typed", async () => {
    const token = (await issueSetupToken(db()))!;
    const bad = await post({ token, studioName: "   ", email: "not-an-email" });
    expect(bad.status).toBe(400);
    const reply = bad.data!.reply as SubmissionResult<string[]>;
    expect(reply.error).toEqual({ studioName: ["Studio name is required"], email: ["Please enter a valid email"] });
    expect(reply.initialValue).toMatchObject({ email: "not-an-email" });
    const long = await post({ token, studioName: "x".repeat(81), email: "owner@example.com" });
    expect((long.data!.reply as SubmissionResult<string[]>).error?.studioName?.[0]).toMatch(/80 characters/);
    expect(await db().selectFrom("admin_users").selectAll().execute()).toEqual([]);
    expect(await setupTokenState(db(), token)).toBe("live");
  });

  it("signs the new super admin in and sends them to the settings; the link is spent", async () => {
    const token = (await issueSetupToken(db()))!;
    const done = await post({ token, studioName: "  Atelier Nord  ", email: "owner@example.com" });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/admin/settings");
    expect(done.cookie).toMatch(/^__studio_session=/);
    const user = await getSessionUser(new Request(`${BASE}/admin`, { headers: { Cookie: done.cookie! } }));
    expect(user).toMatchObject({ email: "owner@example.com", isAdmin: true, isSuperAdmin: true });
    const row = await db()
      .selectFrom("studio_settings")
      .select("data")
      .where("section", "=", "studio")
      .executeTakeFirst();
    expect(JSON.parse(row!.data)).toMatchObject({ name: "Atelier Nord" });
    expect(
      await db().selectFrom("email_outbox").selectAll().where("to_email", "=", "owner@example.com").execute(),
    ).toEqual([]);
    const again = await post({ token, studioName: "Other", email: "other@example.com" });
    expect(again).toEqual({ status: 410, data: { live: false } });
  });

  it("a client posting too often is told to wait (429 with Retry-After), before anything is read", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const answers = [];
    for (let i = 0; i < 21; i++)
      answers.push(await post({ token: "guess", studioName: "x", email: "x@x.io" }, "203.0.113.9"));
    expect(answers.slice(0, 20).every((a) => a.status === 404)).toBe(true);
    expect(answers[20].status).toBe(429);
  });
});
