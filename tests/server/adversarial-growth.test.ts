/**
 * Growth a stranger can cause on the running production build (issue 16, findings 7-9): rows
 * written for anonymous requests stay bounded and are removed by the server's own scheduled
 * cleanup; the page cache keeps its keys to pages that exist; sign-in cookies and return paths
 * cannot be bent.
 */
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ENTRIES } from "../../server/http/page-cache.server";
import { queryDb, serversPerTest, startServer, startedDataDir, type RunningServer } from "../helpers/server";
import { startSmtpFake, type SmtpFake } from "../helpers/smtp-fake";

let server: RunningServer;
let smtp: SmtpFake;
/** A mail provider (an SMTP server of the test's): production without one refuses email sign-in. */
const mailEnv = () => ({ SMTP_URL: smtp.url, MAIL_FROM: "Studio <hello@studio.example>" });
beforeAll(async () => {
  smtp = await startSmtpFake();
  server = await startServer({ env: mailEnv() });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const count = (dataDir: string, sql: string, ...params: unknown[]) =>
  queryDb<{ n: number }>(dataDir, sql, ...params)[0].n;

/** A valid first step: answered with a redirect to the next (no page to render). */
const STEP_ONE = {
  selectedPackage: "growth",
  name: "Ada",
  email: "ada-growth@example.com",
  company: "Engines",
  intent: "next",
};

/**
 * A booking post without a cookie, from `ip` (X-Forwarded-For from the proxy on loopback): a new
 * draft each, until the client's limit.
 */
function cookielessPost(base: string, ip: string, fields: Record<string, string> = STEP_ONE) {
  return fetch(`${base}/booking?index&step=1`, {
    method: "POST",
    body: new URLSearchParams(fields),
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "X-Forwarded-For": ip },
  });
}

/** base-26 letters for i: a, b, ..., z, ba, bb, ... (a valid-looking but unknown ?category=). */
const letters = (i: number) => {
  let s = "";
  do {
    s = String.fromCharCode(97 + (i % 26)) + s;
    i = Math.floor(i / 26);
  } while (i > 0);
  return `zz${s}`;
};

describe("booking drafts: one per visitor, not one per request", () => {
  it("cookieless posts from one client get 429 with Retry-After and the message after the limit; the table stays bounded", async () => {
    const ip = "203.0.113.10";
    const before = count(server.dataDir, "select count(*) n from booking_drafts");
    const statuses: number[] = [];
    let refused: Response | null = null;
    let refusedBody = "";
    // Up to 160 posts: the limit's 100, then 10 more refused in a row (every one past it must be).
    for (let i = 0; i < 160 && statuses.filter((s) => s === 429).length < 10; i++) {
      const res = await cookielessPost(server.url, ip);
      statuses.push(res.status);
      if (res.status === 429 && !refused) {
        refused = res;
        refusedBody = await res.text();
      } else await res.arrayBuffer();
    }
    const created = count(server.dataDir, "select count(*) n from booking_drafts") - before;
    expect(refused, `statuses: ${[...new Set(statuses)].join(",")}`).not.toBeNull();
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Shown where the step shows its errors (the page is rendered, no-JS included).
    expect(refusedBody).toContain("Too many new booking forms from your network");
    expect(refused!.headers.get("set-cookie") ?? "").not.toContain("booking_draft");
    // Every request past the limit is refused and writes nothing.
    const firstRefusal = statuses.indexOf(429);
    expect(statuses.slice(firstRefusal).every((s) => s === 429)).toBe(true);
    expect(created).toBe(firstRefusal);
    expect(created).toBeLessThanOrEqual(100);
  });

  it("the limit counts new drafts only: a visitor with a draft goes on, and other clients are unaffected", async () => {
    const ip = "203.0.113.11";
    const first = await cookielessPost(server.url, ip);
    expect(first.status).toBe(302);
    const cookie = first.headers.get("set-cookie")!.split(";")[0];
    let limited = false;
    for (let i = 0; i < 160 && !limited; i++) {
      const res = await cookielessPost(server.url, ip);
      await res.arrayBuffer();
      limited = res.status === 429;
    }
    expect(limited).toBe(true);
    const next = await fetch(`${server.url}/booking?index&step=2`, {
      method: "POST",
      body: new URLSearchParams({
        isNewSite: "on",
        primaryGoal: "portfolio",
        targetAudience: "Design-minded founders",
        intent: "next",
      }),
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: server.url,
        Cookie: cookie,
        "X-Forwarded-For": ip,
      },
    });
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toBe("/booking?step=3");
    // Another client's post is answered as ever: its (empty) step refused with the form's errors.
    const other = await cookielessPost(server.url, "203.0.113.12", { intent: "next" });
    await other.arrayBuffer();
    expect(other.status).toBe(400);
  });
});

describe("sign-in requests", () => {
  it("leave no long-lived session row behind (the link's pending state lives at most as long as the link)", async () => {
    const before = count(server.dataDir, "select count(*) n from sessions");
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/auth/email`, {
        method: "POST",
        body: new URLSearchParams({ email: `growth-${i}@example.com` }),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: server.url,
          "X-Forwarded-For": "203.0.113.20",
        },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(
      count(server.dataDir, "select count(*) n from email_outbox where to_email like 'growth-%@example.com'"),
    ).toBe(5);
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    expect(
      count(server.dataDir, "select count(*) n from sessions where user_id is null and expires_at > ?", inAnHour),
    ).toBe(0);
    expect(count(server.dataDir, "select count(*) n from sessions") - before).toBe(0);
  });
});

describe("sign-in over https (APP_URL https)", () => {
  const { start } = serversPerTest();
  const appUrl = "https://studio.example";

  async function signIn(s: RunningServer, email: string, redirectTo: string) {
    const sent = await fetch(`${s.url}/auth/email`, {
      method: "POST",
      body: new URLSearchParams({ email, redirectTo }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: appUrl, "X-Forwarded-Proto": "https" },
    });
    expect(sent.status).toBe(200);
    const [mail] = queryDb<{ text_body: string }>(
      s.dataDir,
      "select text_body from email_outbox where to_email = ? order by id desc limit 1",
      email,
    );
    const link = new URL(/https:\/\/\S+\/auth\/callback\?\S+/.exec(mail.text_body)![0]);
    return fetch(`${s.url}/auth/callback`, {
      method: "POST",
      body: new URLSearchParams({ token: link.searchParams.get("token")! }),
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: appUrl, "X-Forwarded-Proto": "https" },
    });
  }

  it("the session cookie is __Host- prefixed (Secure, Path=/, no Domain), and '/.//evil.example' is not followed off-site", async () => {
    const s = await start({ env: { APP_URL: appUrl, ...mailEnv() } });
    const res = await signIn(s, "host-cookie@example.com", "/.//evil.example");
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location.startsWith("//")).toBe(false);
    expect(new URL(location, appUrl).origin).toBe(appUrl);
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.includes("studio_session="));
    expect(session, cookies.join("\n")).toMatch(/^__Host-studio_session=/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*Path=\/(;|$)/i);
    expect(session).not.toMatch(/Domain=/i);
    // The cookie works: the signed-in page knows the buyer.
    const page = await fetch(`${s.url}/templates`, {
      headers: { Cookie: session!.split(";")[0], "X-Forwarded-Proto": "https" },
    });
    expect(await page.text()).toContain("host-cookie@example.com");

    // The site's other cookies carry the prefix too: the booking draft and the remembered return path.
    const step = await fetch(`${s.url}/booking?index&step=1`, {
      method: "POST",
      body: new URLSearchParams({
        selectedPackage: "growth",
        name: "Ada",
        email: "ada@example.com",
        company: "Engines",
        intent: "next",
      }),
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: appUrl, "X-Forwarded-Proto": "https" },
    });
    expect(step.status).toBe(302);
    expect(step.headers.get("set-cookie")).toMatch(/^__Host-booking_draft=[^;]+;.*Path=\/;.*Secure/);
    const guarded = await fetch(`${s.url}/dashboard`, {
      redirect: "manual",
      headers: { "X-Forwarded-Proto": "https" },
    });
    expect(guarded.status).toBe(302);
    expect(guarded.headers.get("set-cookie")).toMatch(/^__Host-auth_redirect=[^;]+;.*Path=\/;.*Secure/);
  });
});

describe("the running server removes expired rows on its own", () => {
  const { start } = serversPerTest();

  it("at start (and then on its schedule): expired sessions, abandoned and expired drafts, spent sign-in tokens", async () => {
    // A data folder as a first run leaves it (created, migrated and seeded).
    const dataDir = startedDataDir();
    const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();
    const day = 86400_000;
    const db = new SQLite(path.join(dataDir, "app.db"));
    db.pragma("busy_timeout = 5000");
    try {
      const session = db.prepare("insert into sessions (id, user_id, data, expires_at) values (?, null, '{}', ?)");
      session.run("expired-session", iso(-60_000));
      session.run("live-session", iso(day));
      const draft = db.prepare(
        "insert into booking_drafts (id, booking_id, data, created_at, updated_at) values (?, ?, ?, ?, ?)",
      );
      draft.run("abandoned-draft", crypto.randomUUID(), '{"state":{},"completed":[]}', iso(-2 * day), iso(-2 * day));
      draft.run(
        "old-draft",
        crypto.randomUUID(),
        '{"state":{"name":"Ada"},"completed":[1,2]}',
        iso(-31 * day),
        iso(-20 * day),
      );
      draft.run(
        "live-draft",
        crypto.randomUUID(),
        '{"state":{"name":"Ada"},"completed":[1,2]}',
        iso(-2 * day),
        iso(-2 * day),
      );
      draft.run("new-draft", crypto.randomUUID(), '{"state":{},"completed":[]}', iso(-60_000), iso(-60_000));
      const token = db.prepare(
        "insert into auth_tokens (token_hash, email, client_key, created_at, expires_at, used_at) values (?, 'a@example.com', '', ?, ?, ?)",
      );
      token.run("spent-token", iso(-2 * 3600_000), iso(-2 * 3600_000 + 600_000), iso(-2 * 3600_000 + 60_000));
      token.run("expired-token", iso(-3 * 3600_000), iso(-3 * 3600_000 + 600_000), null);
      token.run("live-token", iso(-60_000), iso(540_000), null);
    } finally {
      db.close();
    }

    const s = await start({ dataDir });
    const ids = () => ({
      sessions: queryDb<{ id: string }>(dataDir, "select id from sessions order by id").map((r) => r.id),
      drafts: queryDb<{ id: string }>(dataDir, "select id from booking_drafts order by id").map((r) => r.id),
      tokens: queryDb<{ token_hash: string }>(dataDir, "select token_hash from auth_tokens order by token_hash").map(
        (r) => r.token_hash,
      ),
    });
    const expected = { sessions: ["live-session"], drafts: ["live-draft", "new-draft"], tokens: ["live-token"] };
    for (let i = 0; i < 50 && JSON.stringify(ids()) !== JSON.stringify(expected); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(ids()).toEqual(expected);
    expect(s.output()).toMatch(/\[cleanup\] removed/);
  });
});

describe("the page cache keeps to pages that exist", () => {
  it("junk ?category= values are rendered but not cached, and do not push / out of the cache", async () => {
    // / is rendered once and cached; a change made behind the server's back is not seen while it stays cached.
    const first = await fetch(`${server.url}/`);
    expect(first.status).toBe(200);
    const featured = queryDb<{ id: string; name: string }>(
      server.dataDir,
      "select id, name from templates where featured = 1 order by created_at desc limit 1",
    )[0];
    expect(await first.text()).toContain(featured.name);
    const db = new SQLite(path.join(server.dataDir, "app.db"));
    db.pragma("busy_timeout = 5000");
    try {
      db.prepare("update templates set name = ? where id = ?").run("Renamed Behind The Cache", featured.id);
    } finally {
      db.close();
    }
    const cached = async () => {
      const text = await (await fetch(`${server.url}/`)).text();
      return text.includes(featured.name) && !text.includes("Renamed Behind The Cache");
    };
    expect(await cached()).toBe(true);

    // One more than the cache holds: were junk keys cached, the newest MAX_ENTRIES would all be junk, / not among them.
    for (let i = 0; i <= MAX_ENTRIES; i++) {
      const res = await fetch(`${server.url}/templates?category=${letters(i)}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // Still the cached copy of /: junk keys took no room in the cache.
    expect(await cached()).toBe(true);
    // A category that exists is still served (and shows the catalogue).
    const saas = await fetch(`${server.url}/templates?category=saas`);
    expect(saas.status).toBe(200);
    await saas.arrayBuffer();
  });
});
