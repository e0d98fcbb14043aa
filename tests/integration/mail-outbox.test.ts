import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailSettings } from "../../server/email/mailer.server";
import { freshDb, type TestDb } from "../helpers/db";

// A local stand-in for SendGrid's API that fails, then hangs, then accepts.
let mode: "fail" | "ok" = "fail";
const received: string[] = [];
let fake: http.Server;
let t: TestDb;
let settings: MailSettings;

beforeAll(async () => {
  fake = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push(body);
      if (mode === "fail")
        return res.writeHead(500, { "Content-Type": "application/json" }).end('{"errors":[{"message":"boom"}]}');
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  settings = {
    SENDGRID_API_BASE: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
    SENDGRID_API_KEY: "SG.test",
    MAIL_FROM: "Studio Rowan <hello@studiorowan.example>",
  };
  t = await freshDb();
});

afterAll(async () => {
  fake.close();
  await t.close();
});

describe("the outbox", () => {
  it("keeps a message whose delivery failed, schedules a retry, and delivers it later", async () => {
    const { sendMail, retryPendingMail } = await import("../../server/email/mailer.server");
    const r = await sendMail(t.db, settings, {
      to: "a@example.com",
      subject: "Hi",
      text: "Hello",
      html: "<p>Hello</p>",
    });
    expect(r.status).toBe("pending");
    const row = await t.db.selectFrom("email_outbox").selectAll().where("id", "=", r.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.error).toBeTruthy();
    expect(Date.parse(row.next_attempt_at!)).toBeGreaterThan(Date.now());
    expect(await retryPendingMail(t.db, settings)).toBe(0); // not due yet
    await t.db.updateTable("email_outbox").set({ next_attempt_at: "2000-01-01T00:00:00.000Z" }).execute();
    mode = "ok";
    expect(await retryPendingMail(t.db, settings)).toBe(1);
    const sent = await t.db.selectFrom("email_outbox").selectAll().where("id", "=", r.id).executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: "sent", attempts: 2, error: null });
    expect(received.length).toBe(2);
  });
});
