/** Issue 33.2: the mail settings, each bad one refused in one line that names it (never its password). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../server/env.server";

const base = () => ({
  NODE_ENV: "production",
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "env-mail-")),
  APP_URL: "https://studio.example",
  SESSION_SECRET: "0123456789abcdef0123456789abcdef0123",
});

function refusal(vars: Record<string, string>): string {
  try {
    parseEnv({ ...base(), ...vars });
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("accepted");
}

describe("mail settings", () => {
  it("accepts SMTP_URL (smtp:// or smtps://) or SendGrid, each with MAIL_FROM, or no provider at all", () => {
    const from = { MAIL_FROM: "Studio <hello@studio.example>" };
    expect(parseEnv({ ...base(), ...from, SMTP_URL: "smtp://u:p@mail.example:587" }).SMTP_URL).toBe(
      "smtp://u:p@mail.example:587",
    );
    expect(parseEnv({ ...base(), ...from, SMTP_URL: "smtps://u:p@mail.example" }).SMTP_URL).toBeTruthy();
    expect(parseEnv({ ...base(), MAIL_FROM: "hello@studio.example", SENDGRID_API_KEY: "SG.x" }).SENDGRID_API_KEY).toBe(
      "SG.x",
    );
    const none = parseEnv(base());
    expect(none.SMTP_URL).toBeUndefined();
    expect(none.MAIL_FROM).toBeUndefined();
  });

  it.each([
    [
      { SMTP_URL: "http://u:hunter22@mail.example", MAIL_FROM: "a@b.example" },
      "SMTP_URL must start with smtp:// or smtps://, got 'http://u:***@mail.example'",
    ],
    [
      { SMTP_URL: "mail.example:587", MAIL_FROM: "a@b.example" },
      "SMTP_URL must start with smtp:// or smtps://, got 'mail.example:587'",
    ],
    [
      { SMTP_URL: "smtp://u:hunter22@:587", MAIL_FROM: "a@b.example" },
      "SMTP_URL must be a URL such as smtp://user:pass@host:587 or smtps://user:pass@host:465, got 'smtp://u:***@:587'",
    ],
    [
      { SMTP_URL: "smtp://", MAIL_FROM: "a@b.example" },
      "SMTP_URL must name a host (smtp://user:pass@host:587), got 'smtp://'",
    ],
    [
      { SMTP_URL: "smtp://u:hunter22@mail.example", SENDGRID_API_KEY: "SG.x", MAIL_FROM: "a@b.example" },
      "SENDGRID_API_KEY and SMTP_URL are both set: choose one mail provider and remove the other",
    ],
    [
      { SMTP_URL: "smtp://u:hunter22@mail.example" },
      'MAIL_FROM is required when SMTP_URL is set: the sender, such as "Studio <hello@your-domain.com>"',
    ],
    [
      { SENDGRID_API_KEY: "SG.x" },
      'MAIL_FROM is required when SENDGRID_API_KEY is set: the sender, such as "Studio <hello@your-domain.com>"',
    ],
    [
      { SMTP_URL: "smtp://u:hunter22@mail.example", MAIL_FROM: "Studio Rowan" },
      `MAIL_FROM must be an email address or "Name <address>", got 'Studio Rowan'`,
    ],
  ])("refuses %j in one line", (vars, line) => {
    const message = refusal(vars);
    expect(message).toBe(line);
    expect(message).not.toContain("\n");
    expect(message).not.toContain("hunter22");
  });
});
