/**
 * Issue 33.2: mail through SMTP (nodemailer) to a real SMTP server started here, with AUTH; the
 * .ics a confirmation carries arrives as text/calendar; a refusal is kept with the server's
 * answer, listed as failed, and "Retry" delivers it. Without a provider in production nothing of
 * a message but its subject and a masked recipient is printed, and the row does not say "sent".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mailOverview, retryMail, sendTestMail } from "../../server/email/mail-console.server";
import { log as serverLog } from "../../server/log.server";
import { sendMail, type MailSettings } from "../../server/email/mailer.server";
import { freshDb, type TestDb } from "../helpers/db";
import { header, partsOfType, startSmtpFake, type SmtpFake } from "../helpers/smtp-fake";

let smtp: SmtpFake;
let t: TestDb;
let settings: MailSettings;
const FROM = "Studio Rowan <hello@studiorowan.example>";
const ICS =
  "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:call-1@studio\r\nSUMMARY:Consultation\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

beforeAll(async () => {
  smtp = await startSmtpFake();
  settings = { SMTP_URL: smtp.url, MAIL_FROM: FROM, isProduction: true };
  t = await freshDb();
});

afterAll(async () => {
  await smtp.close();
  await t.close();
});

afterEach(() => {
  smtp.refuse = null;
  vi.restoreAllMocks();
});

const row = (id: number) => t.db.selectFrom("email_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("mail through SMTP", () => {
  it("delivers with the server's credentials, from MAIL_FROM, with the .ics as text/calendar, and records the answer", async () => {
    const r = await sendMail(t.db, settings, {
      to: "ada@example.com",
      subject: "Your consultation request with Studio Rowan",
      text: "Hi Ada",
      html: "<p>Hi Ada</p>",
      attachments: [{ filename: "consultation.ics", contentType: "text/calendar; method=REQUEST", content: ICS }],
    });
    expect(r.status).toBe("sent");
    expect(r.answer).toMatch(/^250 /);
    const m = await smtp.waitFor((x) => x.to.includes("ada@example.com"));
    expect(m.from).toBe("hello@studiorowan.example");
    expect(header(m.raw, "Subject")).toBe("Your consultation request with Studio Rowan");
    const [ics] = partsOfType(m.raw, "text/calendar");
    expect(ics.headers).toMatch(/filename="?consultation\.ics/);
    expect(ics.headers).toMatch(/method=REQUEST/);
    expect(ics.body.replace(/\r?\n/g, "\n")).toBe(ICS.replace(/\r\n/g, "\n"));
    expect(await row(r.id)).toMatchObject({ status: "sent", attempts: 1, error: null });
  });

  it("wrong credentials: the attempt fails with the server's answer and waits for a retry", async () => {
    const wrong = { ...settings, SMTP_URL: smtp.url.replace("s3cret-pass", "wrong") };
    const r = await sendMail(t.db, wrong, { to: "b@example.com", subject: "S", text: "x", html: "<p>x</p>" });
    expect(r.status).toBe("pending");
    expect(r.answer).toMatch(/535/);
    const saved = await row(r.id);
    expect(saved).toMatchObject({ status: "pending", attempts: 1 });
    expect(saved.error).toMatch(/535/);
  });

  it("Send test email: the refusal is listed as failed with its answer, and Retry delivers it", async () => {
    const log = vi.spyOn(serverLog, "error").mockImplementation(() => {});
    smtp.refuse = { code: 550, message: "Mailbox unavailable" };
    const sent = await sendTestMail(t.db, settings, "owner@example.com", "Studio Rowan");
    expect(sent).toMatchObject({ to: "owner@example.com", status: "failed" });
    expect(sent.answer).toMatch(/550.*Mailbox unavailable/);
    // The recipient is masked in the server's output.
    expect(log.mock.calls.flat().join(" ")).toContain("o***@example.com");
    expect(log.mock.calls.flat().join(" ")).not.toContain("owner@example.com");
    const overview = await mailOverview(t.db, settings);
    expect(overview).toMatchObject({
      provider: "smtp",
      server: `smtp://127.0.0.1:${smtp.port}`,
      off: false,
      from: FROM,
    });
    expect(JSON.stringify(overview)).not.toContain("s3cret-pass");
    const listed = overview.failed.find((f) => f.id === sent.id);
    expect(listed).toMatchObject({ to: "owner@example.com", subject: "Test email from Studio Rowan" });
    expect(listed?.error).toMatch(/550/);

    smtp.refuse = null;
    const again = await retryMail(t.db, settings, sent.id);
    expect(again).toMatchObject({ id: sent.id, status: "sent" });
    expect(again.answer).toMatch(/^250 /);
    await smtp.waitFor((x) => x.to.includes("owner@example.com"));
    expect((await mailOverview(t.db, settings)).failed.some((f) => f.id === sent.id)).toBe(false);
    // A second Retry finds nothing to retry.
    await expect(retryMail(t.db, settings, sent.id)).rejects.toThrow(/no longer waiting/);
  });
});

describe("no provider", () => {
  it("in production prints one line (subject, masked recipient, not sent), never the body, and the row is not 'sent'", async () => {
    const out = vi.spyOn(serverLog, "info").mockImplementation(() => {});
    const dev = vi.spyOn(console, "log").mockImplementation(() => {});
    const r = await sendMail(
      t.db,
      { MAIL_FROM: undefined, isProduction: true },
      {
        to: "grace@example.com",
        subject: "Your sign-in link for Studio Rowan",
        text: "Open https://studio.example/auth/callback?token=SECRET-TOKEN",
        html: "<p>SECRET-TOKEN</p>",
        attachments: [{ filename: "consultation.ics", contentType: "text/calendar", content: ICS }],
      },
    );
    const printed = out.mock.calls.map((c) => c.join(" "));
    expect(printed).toEqual([
      '[mail] not sent (no mail provider): "Your sign-in link for Studio Rowan" to g***@example.com',
    ]);
    expect(dev).not.toHaveBeenCalled();
    const saved = await row(r.id);
    expect(saved.status).not.toBe("sent");
    expect(saved).toMatchObject({ status: "logged", sent_at: null });
    expect(saved.error).toMatch(/^Not sent: no mail provider/);
    expect((await mailOverview(t.db, { MAIL_FROM: undefined, isProduction: true, NODE_ENV: "production" })).off).toBe(
      true,
    );
  });

  it("in development prints the message, as before", async () => {
    const out = vi.spyOn(console, "log").mockImplementation(() => {});
    await sendMail(
      t.db,
      { MAIL_FROM: undefined, isProduction: false },
      {
        to: "dev@example.com",
        subject: "Dev",
        text: "the body with a link",
        html: "<p>x</p>",
      },
    );
    const printed = out.mock.calls.map((c) => c.join(" ")).join("\n");
    expect(printed).toContain("to=dev@example.com");
    expect(printed).toContain("the body with a link");
  });
});
