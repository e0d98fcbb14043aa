import type { DB } from "../db/db.server";
import { DomainError } from "../errors";
import { retryFailedMail, sendMail, type MailSettings } from "./mailer.server";
import { mailIsOff, mailProvider } from "#domain/mail-providers";

/** How many messages that gave up the console lists (the newest first). */
const FAILED_SHOWN = 20;

/**
 * The console's Mail card: which provider sends (SMTP's host, never its credentials), the
 * sender, whether mail is off (production without a provider), and the messages that gave up.
 */
export async function mailOverview(db: DB, e: MailSettings & { NODE_ENV?: string }) {
  const provider = mailProvider(e);
  let server: string | null = null;
  if (provider === "smtp" && e.SMTP_URL) {
    const url = new URL(e.SMTP_URL);
    server = `${url.protocol}//${url.host}`;
  }
  const failed = await db
    .selectFrom("email_outbox")
    .select(["id", "to_email", "subject", "error", "attempts", "created_at"])
    .where("status", "=", "failed")
    .orderBy("id", "desc")
    .limit(FAILED_SHOWN)
    .execute();
  const count = await db
    .selectFrom("email_outbox")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "failed")
    .executeTakeFirstOrThrow();
  return {
    provider,
    server,
    from: provider === "none" ? null : (e.MAIL_FROM ?? null),
    off: mailIsOff(e),
    failed: failed.map((m) => ({
      id: m.id,
      to: m.to_email,
      subject: m.subject,
      error: m.error,
      attempts: m.attempts,
      createdAt: m.created_at,
    })),
    failedCount: Number(count.n),
  };
}

/**
 * "Send test email": one message through the provider, now, with its answer. Tried once: a
 * failure is listed with the failed mails (and "Retry") rather than retried in the background.
 */
export async function sendTestMail(db: DB, e: MailSettings, to: string, studioName: string, now = new Date()) {
  const when = now.toISOString().replace("T", " ").slice(0, 16) + " UTC";
  const r = await sendMail(
    db,
    e,
    {
      to,
      subject: `Test email from ${studioName}`,
      text: `This is a test email from the ${studioName} console, sent ${when}.\n\nIf you can read it, the studio's mail works: clients receive their confirmations, receipts and sign-in links.\n`,
      html: `<p>This is a test email from the ${escapeHtml(studioName)} console, sent ${when}.</p><p>If you can read it, the studio's mail works: clients receive their confirmations, receipts and sign-in links.</p>`,
    },
    { maxAttempts: 1 },
  );
  return { to, ...r };
}

/** "Retry" on a failed message: delivered again now, with the provider's answer. */
export async function retryMail(db: DB, e: MailSettings, id: number) {
  const r = await retryFailedMail(db, e, id);
  if (r === null) throw new DomainError("not-found", "This message is no longer waiting for a retry");
  if (r === "expired")
    throw new DomainError("conflict", "Not sent again: its moment has passed (the call it reminds of has begun)");
  return r;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}
