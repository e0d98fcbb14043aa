/**
 * Issue 18 against the production build: the call read from a local Calendly-compatible API,
 * signed webhooks through the whole HTTP stack, the server's own loop filling in a time Calendly
 * could not give at once, and a reminder sent once across a restart.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCalendlyFake, signCalendly } from "../helpers/calendly-fake.mjs";
import { httpVisitor, queryDb, serversPerTest, startServer, type RunningServer } from "../helpers/server";
import { header, partsOfType, startSmtpFake, type SmtpFake } from "../helpers/smtp-fake";

const KEY = "server-test-signing-key";
const fake = createCalendlyFake({ token: "server-test-token" });
let api: http.Server;
let apiBase = "";
/** The mail provider of the reminder test: production prints no message, so they are read here. */
let smtp: SmtpFake;
const { start } = serversPerTest();

beforeAll(async () => {
  api = http.createServer((req, res) => {
    if (!fake.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => api.listen(0, "127.0.0.1", r));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  smtp = await startSmtpFake();
});

afterAll(async () => {
  api.closeAllConnections();
  await new Promise((r) => api.close(r));
  await smtp.close();
});

const calendlyEnv = () => ({
  // A studio that books through Calendly (it keeps it until the owner switches: issue 43.1).
  CALENDLY_URL: "https://calendly.com/studio-test/consultation",
  CALENDLY_TOKEN: "server-test-token",
  CALENDLY_API_BASE: apiBase,
  CALENDLY_WEBHOOK_SIGNING_KEY: KEY,
  STUDIO_TIMEZONE: "Europe/London",
});

function writeDb(dataDir: string, sql: string, ...params: unknown[]) {
  const db = new SQLite(path.join(dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

async function until<T>(read: () => T, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = read();
  while (!ok(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    v = read();
  }
  return v;
}

async function book(server: RunningServer, email: string, uris: { eventUri: string; inviteeUri: string }) {
  const v = httpVisitor(server.url, "192.0.2.80");
  await v.fillSteps(email);
  const res = await v.post(6, { intent: "confirm", ...uris });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/booking/success");
  return v;
}

describe("scheduling on the running server", () => {
  it("POST /webhooks/calendly: signed from anywhere is processed, unsigned or stale is 400, a replay changes nothing", async () => {
    const server = await start({ env: calendlyEnv() });
    const email = "webhook-http@example.com";
    const v = httpVisitor(server.url, "192.0.2.81");
    await v.fillSteps(email);
    expect((await v.confirm()).status).toBe(302);
    const call = fake.schedule({ email, startAt: "2031-02-03T10:00:00Z" });
    const body = fake.webhookBody("invitee.created", call.inviteeUri);
    const send = (signature: string | null, origin = "https://calendly.com") =>
      fetch(`${server.url}/webhooks/calendly`, {
        method: "POST",
        body,
        headers: {
          "Content-Type": "application/json",
          Origin: origin,
          ...(signature === null ? {} : { "Calendly-Webhook-Signature": signature }),
        },
      });
    const now = Math.floor(Date.now() / 1000);
    for (const bad of [null, signCalendly(body, "wrong-key", now), signCalendly(body, KEY, now - 181)]) {
      const res = await send(bad);
      expect(res.status, String(bad)).toBe(400);
    }
    expect(queryDb(server.dataDir, "select id from calendly_webhook_events")).toEqual([]);
    const ok = await send(signCalendly(body, KEY));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("call updated");
    const row = () =>
      queryDb<{ meeting_start_at: string; meeting_status: string; updated_at: string }>(
        server.dataDir,
        "select meeting_start_at, meeting_status, updated_at from bookings where email = ?",
        email,
      )[0];
    const first = row();
    expect(first).toMatchObject({ meeting_start_at: "2031-02-03T10:00:00.000Z", meeting_status: "scheduled" });
    const replay = await send(signCalendly(body, KEY));
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe("duplicate");
    expect(row()).toEqual(first);
    // GET is not a webhook.
    expect((await fetch(`${server.url}/webhooks/calendly`)).status).toBe(405);
  });

  // This and the next wait for turns of the server's 5 s loop: slow (npm run test:slow).
  it(
    "with Calendly down at the confirm, the booking is saved at once and the server's loop fills the time in when it is back",
    { tags: ["slow"] },
    async () => {
      const server = await start({ env: calendlyEnv() });
      const email = "api-down@example.com";
      const call = fake.schedule({ email, startAt: "2031-04-05T16:00:00Z", timezone: "America/Denver" });
      fake.state.mode = "down";
      try {
        await book(server, email, call);
        const read = () =>
          queryDb<{
            meeting_start_at: string | null;
            meeting_fetch_next_at: string | null;
            meeting_fetch_attempts: number;
          }>(
            server.dataDir,
            "select meeting_start_at, meeting_fetch_next_at, meeting_fetch_attempts from bookings where email = ?",
            email,
          )[0];
        expect(read()).toMatchObject({ meeting_start_at: null, meeting_fetch_attempts: 1 });
        expect(read().meeting_fetch_next_at).not.toBeNull();
        fake.state.mode = "ok";
        // The 30 s backoff, moved forward rather than waited for: the loop (every 5 s) reads it.
        writeDb(
          server.dataDir,
          "update bookings set meeting_fetch_next_at = ? where email = ?",
          new Date(Date.now() - 1000).toISOString(),
          email,
        );
        const filled = await until(read, (r) => r.meeting_start_at !== null);
        expect(filled).toMatchObject({ meeting_start_at: "2031-04-05T16:00:00.000Z", meeting_fetch_next_at: null });
        const reminders = queryDb<{ kind: string; next_attempt_at: string }>(
          server.dataDir,
          "select kind, next_attempt_at from email_outbox where to_email = ? and kind != 'message' order by id",
          email,
        );
        expect(reminders).toEqual([
          { kind: "reminder_24h", next_attempt_at: "2031-04-04T16:00:00.000Z" },
          { kind: "reminder_1h", next_attempt_at: "2031-04-05T15:00:00.000Z" },
        ]);
      } finally {
        fake.state.mode = "ok";
      }
    },
  );

  it(
    "a reminder due is sent once by the server's loop, and not again after a restart",
    { tags: ["slow"] },
    async () => {
      const mailEnv = { ...calendlyEnv(), SMTP_URL: smtp.url, MAIL_FROM: "Studio <hello@studio.example>" };
      const first = await startServer({ env: mailEnv });
      const email = "remind-once@example.com";
      const call = fake.schedule({ email, startAt: new Date(Date.now() + 3 * 3600_000).toISOString() });
      await book(first, email, call);
      const reminders = () =>
        queryDb<{ kind: string; status: string; attempts: number }>(
          first.dataDir,
          "select kind, status, attempts from email_outbox where to_email = ? and kind != 'message' order by id",
          email,
        );
      expect(reminders()).toEqual([{ kind: "reminder_1h", status: "pending", attempts: 0 }]);
      // Its time comes (moved forward rather than waited for).
      writeDb(
        first.dataDir,
        "update email_outbox set next_attempt_at = ? where to_email = ? and kind = 'reminder_1h'",
        new Date(Date.now() - 1000).toISOString(),
        email,
      );
      expect(await until(reminders, (r) => r[0].status !== "pending")).toEqual([
        { kind: "reminder_1h", status: "sent", attempts: 1 },
      ]);
      const sentReminders = () =>
        smtp.received.filter((m) => m.to.includes(email) && header(m.raw, "Subject")?.startsWith("Starting in 1 hour"));
      expect(sentReminders()).toHaveLength(1);
      expect(partsOfType(sentReminders()[0].raw, "text/plain")[0].body).toContain(
        `Join the call: ${call.event.location.join_url}`,
      );
      await first.stop();

      // A message due now, put in before the restart: once the new server's loop has sent it, that
      // loop has had a turn over everything due (the reminder's moment came earlier still), so the
      // reminder not being sent again is seen, not waited for.
      writeDb(
        first.dataDir,
        "insert into email_outbox (to_email, subject, text_body, html_body, next_attempt_at) values (?, ?, ?, ?, ?)",
        "marker@example.com",
        "Marker",
        "marker",
        "<p>marker</p>",
        new Date().toISOString(),
      );
      await start({ dataDir: first.dataDir, env: mailEnv });
      const marker = () =>
        queryDb<{ status: string }>(
          first.dataDir,
          "select status from email_outbox where to_email = ?",
          "marker@example.com",
        )[0];
      expect(await until(marker, (m) => m.status !== "pending")).toEqual({ status: "sent" });
      await smtp.waitFor((m) => m.to.includes("marker@example.com"));
      expect(sentReminders()).toHaveLength(1);
      expect(reminders()).toEqual([{ kind: "reminder_1h", status: "sent", attempts: 1 }]);
    },
  );
});
