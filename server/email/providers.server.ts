import type { z } from "zod";
import type { Client } from "@sendgrid/client";
import type { Transporter } from "nodemailer";
import { type mailAttachmentSchema } from "../db/json-columns";
import type { Env } from "../env.server";
import { mailProvider, type MailProvider } from "#domain/mail-providers";

/**
 * The ways out of the outbox (issue 33.2): SendGrid's API or an SMTP server, as the environment
 * names them, and what each answered. The outbox itself is mailer.server.ts.
 */

/** A file sent with a message; `content` is text (an .ics), or base64 with `encoding` (a PDF). */
export type MailAttachment = z.infer<typeof mailAttachmentSchema>;

export type Mail = { to: string; subject: string; text: string; html: string; attachments?: MailAttachment[] };

/**
 * What delivery reads from the environment: the provider (SendGrid's key and API base, or
 * SMTP_URL; neither: messages are not sent), the sender, and whether this is production (where
 * an unsent message is never printed).
 */
export type MailSettings = Pick<Env, "SENDGRID_API_KEY" | "SENDGRID_API_BASE" | "MAIL_FROM"> &
  Partial<Pick<Env, "SMTP_URL" | "isProduction">>;

/**
 * The SendGrid SDK, loaded at the first message it sends rather than at every start (with axios,
 * some 50 ms of a start whether SendGrid is used or not: issue 42.4); the names are literals,
 * which the bundles follow. The package's types omit the `Client` class it exports beside its
 * default client.
 */
async function sendGrid() {
  const [{ default: client }, { default: mail }] = await Promise.all([
    import("@sendgrid/client"),
    import("@sendgrid/mail"),
  ]);
  return { Client: (client as unknown as { Client: typeof Client }).Client, mail };
}

/** What a provider said: SMTP's reply line, SendGrid's status. */
type Answer = string;

/** One way out: SendGrid's API or an SMTP server. */
type Provider = { name: Exclude<MailProvider, "none">; send: (mail: Mail, from: string) => Promise<Answer> };

/** One SMTP transport per URL for the process (connections are opened per message). */
const smtpTransports = new Map<string, Transporter>();

/** nodemailer, loaded at the first message sent by SMTP (as SendGrid's SDK is). */
async function smtpTransport(url: string): Promise<Transporter> {
  let t = smtpTransports.get(url);
  if (!t) {
    const { default: nodemailer } = await import("nodemailer");
    // A server that does not answer fails the attempt within seconds; the outbox retries it.
    t = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    smtpTransports.set(url, t);
  }
  return t;
}

export function providerFor(e: MailSettings): Provider | null {
  const name = mailProvider(e);
  if (name === "smtp") {
    const url = e.SMTP_URL!;
    return {
      name,
      async send(mail, from) {
        const info = (await (
          await smtpTransport(url)
        ).sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: (mail.attachments ?? []).map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
            ...(a.encoding ? { encoding: a.encoding } : {}),
          })),
        })) as { response?: string };
        return info.response ?? "accepted";
      },
    };
  }
  if (name === "sendgrid") {
    const key = e.SENDGRID_API_KEY!;
    return {
      name,
      async send(mail, from) {
        const { Client: SendGridClient, mail: sgMail } = await sendGrid();
        const client = new SendGridClient();
        client.setApiKey(key);
        // Tests point the real SDK at a local SendGrid-compatible server (setApiKey resets the base).
        if (e.SENDGRID_API_BASE) client.setDefaultRequest("baseUrl", e.SENDGRID_API_BASE);
        sgMail.setClient(client);
        sgMail.setTimeout(10_000);
        const attachments = mail.attachments ?? [];
        const [response] = await sgMail.send({
          to: mail.to,
          from,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(attachments.length
            ? {
                attachments: attachments.map((a) => ({
                  filename: a.filename,
                  type: a.contentType,
                  disposition: "attachment",
                  content: a.encoding === "base64" ? a.content : Buffer.from(a.content, "utf8").toString("base64"),
                })),
              }
            : {}),
        });
        return `SendGrid answered ${response.statusCode}`;
      },
    };
  }
  return null;
}

/** A failed attempt as the provider put it: SMTP's reply, or SendGrid's status and errors. */
export function failureAnswer(error: unknown): string {
  const e = error as {
    message?: string;
    code?: unknown;
    responseCode?: number;
    response?: unknown;
  };
  if (typeof e?.code === "number" && e.response && typeof e.response === "object") {
    const body = (e.response as { body?: { errors?: { message?: string }[] } }).body;
    const detail = body?.errors
      ?.map((x) => x.message)
      .filter(Boolean)
      .join("; ");
    return `SendGrid answered ${e.code}${detail ? `: ${detail}` : ""}`;
  }
  if (typeof e?.responseCode === "number" && typeof e.response === "string" && !e.message?.includes(e.response))
    return `${e.message}: ${e.response}`;
  return error instanceof Error ? error.message : String(error);
}
