import { beforeAll, describe, expect, it } from "vitest";
import { onAppUrl } from "../../server/auth/auth.server";
import { requestMagicLink } from "../../server/http/sign-in.server";
import {
  createDbSessionStorage,
  PENDING_SESSION_TTL_SECONDS,
  SESSION_TTL_SECONDS,
} from "../../server/auth/session.server";
import { db } from "../../server/db.server";
import { migrateToLatest } from "../../server/db/db.server";
import { freshDb } from "../helpers/db";

const SECRET = "sessions-test-secret-0123456789abcdef";

beforeAll(async () => {
  await migrateToLatest(db());
});

describe("session rows", () => {
  it("a session without a user lives 10 minutes, a signed-in one 30 days", async () => {
    const t = await freshDb();
    try {
      const storage = createDbSessionStorage(t.db, { secret: SECRET, secure: false });
      const pending = await storage.getSession();
      pending.set("oauth2:state", "abc");
      await storage.commitSession(pending);
      await t.db.insertInto("users").values({ id: "u1", email: "ada@example.com" }).execute();
      const signedIn = await storage.getSession();
      signedIn.set("userId", "u1");
      await storage.commitSession(signedIn);
      const rows = await t.db.selectFrom("sessions").select(["user_id", "expires_at"]).execute();
      const left = (iso: string) => (Date.parse(iso) - Date.now()) / 1000;
      const pendingRow = rows.find((r) => r.user_id === null)!;
      const userRow = rows.find((r) => r.user_id === "u1")!;
      expect(left(pendingRow.expires_at)).toBeLessThanOrEqual(PENDING_SESSION_TTL_SECONDS);
      expect(left(pendingRow.expires_at)).toBeGreaterThan(PENDING_SESSION_TTL_SECONDS - 60);
      expect(left(userRow.expires_at)).toBeGreaterThan(SESSION_TTL_SECONDS - 60);
    } finally {
      await t.close();
    }
  });

  it("over https the cookie is __Host-studio_session with Secure, Path=/ and no Domain; over http __studio_session", async () => {
    const t = await freshDb();
    try {
      const secure = createDbSessionStorage(t.db, { secret: SECRET, secure: true });
      const header = await secure.commitSession(await secure.getSession());
      expect(header).toMatch(/^__Host-studio_session=/);
      const attrs = header
        .split(";")
        .slice(1)
        .map((a) => a.trim().toLowerCase());
      expect(attrs).toContain("secure");
      expect(attrs).toContain("path=/");
      expect(attrs).toContain("httponly");
      expect(attrs.some((a) => a.startsWith("domain="))).toBe(false);
      // The cookie it set is the one it reads back.
      const session = await secure.getSession(header.split(";")[0]);
      expect(session.id).toBeTruthy();
      const plain = createDbSessionStorage(t.db, { secret: SECRET, secure: false });
      expect(await plain.commitSession(await plain.getSession())).toMatch(/^__studio_session=/);
    } finally {
      await t.close();
    }
  });
});

describe("a magic-link request", () => {
  it("mails the link and writes no session row", async () => {
    const before = await db()
      .selectFrom("sessions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const form = new FormData();
    form.set("email", "no-row@example.com");
    const result = await requestMagicLink(
      new Request("http://localhost:3000/auth/email", { method: "POST" }),
      form,
      "sessions-test",
    );
    expect(result).toEqual({ ok: true, email: "no-row@example.com" });
    const mail = await db()
      .selectFrom("email_outbox")
      .select("text_body")
      .where("to_email", "=", "no-row@example.com")
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("/auth/callback?token=");
    const after = await db()
      .selectFrom("sessions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("builds the magic link on APP_URL whatever host the request names (issue 30.5: no patched library method)", async () => {
    const form = new FormData();
    form.set("email", "host-safe@example.com");
    const result = await requestMagicLink(
      new Request("http://evil.example/auth/email", {
        method: "POST",
        headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
      }),
      form,
      "sessions-test-host",
    );
    expect(result).toEqual({ ok: true, email: "host-safe@example.com" });
    const mail = await db()
      .selectFrom("email_outbox")
      .select(["text_body", "html_body"])
      .where("to_email", "=", "host-safe@example.com")
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toMatch(/http:\/\/localhost:3000\/auth\/callback\?token=\S+/);
    expect(`${mail.text_body}${mail.html_body}`).not.toContain("evil.example");
  });

  it("moves a link onto APP_URL's origin, keeping its path and token", () => {
    expect(onAppUrl("https://evil.example:8443/auth/callback?token=a%2Fb%3D", "https://studio.example")).toBe(
      "https://studio.example/auth/callback?token=a%2Fb%3D",
    );
    expect(onAppUrl("https://localhost:3000/auth/callback?token=x", "http://localhost:3000")).toBe(
      "http://localhost:3000/auth/callback?token=x",
    );
  });
});
