import type { DB } from "../db/db.server";
import { listFromJson, nowIso, toJson } from "../db/json";
import { mailAttachmentSchema } from "../db/json-columns";
import type { OutboxKind } from "../db/schema";
import { log } from "../log.server";
import { DEFAULT_MAIL_FROM, maskEmail } from "#domain/mail-providers";
import { failureAnswer, providerFor, type Mail, type MailAttachment, type MailSettings } from "./providers.server";

export type { Mail, MailAttachment, MailSettings } from "./providers.server";

/**
 * How a message is kept in the outbox besides its content: a reminder belongs to a booking, is
 * sent no earlier than `sendAfter` and never after `expiresAt` (it is cancelled instead).
 */
export type MailSchedule = {
  bookingId?: string;
  /** A payment reminder's stage (dropped when the stage is paid). */
  stageId?: string;
  kind?: OutboxKind;
  sendAfter?: Date;
  expiresAt?: Date;
};

const MAX_ATTEMPTS = 6;

function backoffSeconds(attempts: number): number {
  return Math.min(60 * 60, 30 * 2 ** Math.max(0, attempts - 1));
}

/** A message being delivered is retried by the outbox loop only if this much time passes first (a crash mid-send). */
const DELIVERY_LEASE_MS = 2 * 60 * 1000;

/** A message written to the outbox, not yet delivered. */
export type QueuedMail = { id: number; mail: Mail };

/**
 * Writes messages to the outbox (in the caller's transaction when given one), so that whatever
 * commits with them is never without its mail: the outbox loop delivers them if nothing else does.
 */
export async function queueMail(db: DB, mails: Mail[], now: Date = new Date()): Promise<QueuedMail[]> {
  const queued: QueuedMail[] = [];
  for (const mail of mails) {
    // Delivered by the caller right away; the loop takes it over only if the lease runs out (a crash).
    const id = await insertMail(db, mail, { sendAfter: new Date(now.getTime() + DELIVERY_LEASE_MS) });
    queued.push({ id, mail });
  }
  return queued;
}

/**
 * Writes a message that the outbox loop sends when it is due (`schedule.sendAfter`, now when
 * absent): a reminder. Returns its id.
 */
export async function scheduleMail(
  db: DB,
  mail: Mail,
  schedule: MailSchedule,
  now: Date = new Date(),
): Promise<number> {
  return insertMail(db, mail, { ...schedule, sendAfter: schedule.sendAfter ?? now });
}

async function insertMail(db: DB, mail: Mail, schedule: MailSchedule & { sendAfter: Date }): Promise<number> {
  const row = await db
    .insertInto("email_outbox")
    .values({
      to_email: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      attachments: mail.attachments?.length ? toJson(mail.attachments) : null,
      error: null,
      sent_at: null,
      next_attempt_at: schedule.sendAfter.toISOString(),
      booking_id: schedule.bookingId ?? null,
      stage_id: schedule.stageId ?? null,
      kind: schedule.kind ?? "message",
      expires_at: schedule.expiresAt?.toISOString() ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Replaces the content of a queued message that no delivery has touched yet (the booking's
 * confirmation, once the call's time is known). False when it is too late: it stays as it was.
 */
export async function rewriteQueuedMail(db: DB, queued: QueuedMail, mail: Mail): Promise<boolean> {
  const r = await db
    .updateTable("email_outbox")
    .set({
      to_email: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      attachments: mail.attachments?.length ? toJson(mail.attachments) : null,
    })
    .where("id", "=", queued.id)
    .where("status", "=", "pending")
    .where("attempts", "=", 0)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  queued.mail = mail;
  return true;
}

/**
 * Cancels the pending reminders of a booking (its call was cancelled or moved); they are kept,
 * marked `cancelled`, and never sent. Returns how many were.
 */
export async function cancelBookingReminders(db: DB, bookingId: string, reason: string): Promise<number> {
  const r = await db
    .updateTable("email_outbox")
    .set({ status: "cancelled", error: reason, next_attempt_at: null })
    .where("booking_id", "=", bookingId)
    .where("kind", "in", ["reminder_24h", "reminder_1h"])
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Delivers a queued message now: through the provider the settings name (SendGrid or SMTP);
 * without one it is not sent (development prints it, production prints one line without its
 * content). A failed delivery stays in the outbox with the provider's answer and is retried later
 * with backoff; it never throws to the caller. With `waitMs`, the caller waits at most that
 * long: a hanging provider finishes (or fails into the retry queue) in the background.
 */
export async function deliverQueued(
  db: DB,
  settings: MailSettings,
  queued: QueuedMail,
  opts: { waitMs?: number; maxAttempts?: number } = {},
): Promise<{ id: number } & DeliveryResult> {
  const delivery = deliver(db, settings, queued.id, queued.mail, 0, undefined, opts.maxAttempts).catch(
    (error: unknown): DeliveryResult => {
      log.error({ err: error }, `[mail] delivery of #${queued.id} could not be recorded`);
      return { status: "pending", answer: "The delivery could not be recorded; the outbox tries again." };
    },
  );
  if (opts.waitMs === undefined) return { id: queued.id, ...(await delivery) };
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    delivery,
    new Promise<DeliveryResult>(
      (resolve) =>
        (timer = setTimeout(
          () => resolve({ status: "pending", answer: "The provider has not answered yet; the outbox finishes it." }),
          opts.waitMs,
        )),
    ),
  ]);
  clearTimeout(timer);
  return { id: queued.id, ...result };
}

/**
 * Writes the message to the outbox first, then delivers it (see `deliverQueued`) with the mail
 * settings its adapter passed in (like the db).
 */
export async function sendMail(
  db: DB,
  settings: MailSettings,
  mail: Mail,
  opts: { waitMs?: number; maxAttempts?: number } = {},
): Promise<{ id: number } & DeliveryResult> {
  const [queued] = await queueMail(db, [mail]);
  return deliverQueued(db, settings, queued, opts);
}

/**
 * "Retry" on a message that gave up: queued again with a fresh count of attempts and delivered
 * now (when this fails too, the outbox retries it with backoff). Null when there is no such
 * failed message (already retried, or never failed); "expired" for a reminder whose moment passed.
 */
export async function retryFailedMail(
  db: DB,
  settings: MailSettings,
  id: number,
  now: Date = new Date(),
): Promise<({ id: number } & DeliveryResult) | "expired" | null> {
  const m = await db
    .selectFrom("email_outbox")
    .selectAll()
    .where("id", "=", id)
    .where("status", "=", "failed")
    .executeTakeFirst();
  if (!m) return null;
  if (m.expires_at && m.expires_at <= nowIso(now)) return "expired";
  // Claimed by this request: the loop leaves it alone for the lease, a second click finds nothing.
  const claimed = await db
    .updateTable("email_outbox")
    .set({ status: "pending", attempts: 0, next_attempt_at: new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString() })
    .where("id", "=", id)
    .where("status", "=", "failed")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return null;
  const attachments: MailAttachment[] = listFromJson(m.attachments, mailAttachmentSchema);
  const mail = { to: m.to_email, subject: m.subject, text: m.text_body, html: m.html_body, attachments };
  return { id, ...(await deliver(db, settings, id, mail, 0)) };
}

/** How one attempt ended: the outbox status and what the provider (or its absence) said. */
export type DeliveryResult = { status: string; answer: string };

const NO_PROVIDER = "Not sent: no mail provider is configured (set SMTP_URL or SENDGRID_API_KEY, and MAIL_FROM)";

async function deliver(
  db: DB,
  e: MailSettings,
  id: number,
  mail: Mail,
  previousAttempts: number,
  now?: Date,
  maxAttempts = MAX_ATTEMPTS,
): Promise<DeliveryResult> {
  const attempts = previousAttempts + 1;
  const at = () => now ?? new Date();
  const attachments = mail.attachments ?? [];
  const provider = providerFor(e);
  if (!provider) {
    if (e.isProduction) {
      // Never a body, a link or an address in production's output: what it was, and that it stayed here.
      log.info(`[mail] not sent (no mail provider): "${mail.subject}" to ${maskEmail(mail.to)}`);
    } else {
      // Development prints it as it is (not a log line), for the developer to follow its links.
      const files = attachments.length
        ? `\n[mail] attached: ${attachments.map((a) => `${a.filename} (${a.contentType})`).join(", ")}`
        : "";
      console.log(`[mail] to=${mail.to} subject="${mail.subject}"\n${mail.text}${files}\n[mail] end`);
    }
    await db
      .updateTable("email_outbox")
      .set({
        status: "logged",
        sent_at: null,
        error: NO_PROVIDER,
        attempts,
        next_attempt_at: null,
      })
      .where("id", "=", id)
      .execute();
    return { status: "logged", answer: NO_PROVIDER };
  }
  try {
    const answer = await provider.send(mail, e.MAIL_FROM ?? DEFAULT_MAIL_FROM);
    await db
      .updateTable("email_outbox")
      .set({ status: "sent", sent_at: nowIso(at()), attempts, error: null, next_attempt_at: null })
      .where("id", "=", id)
      .execute();
    log.info(`[mail] #${id} sent through ${provider.name}: ${answer.slice(0, 200)}`);
    return { status: "sent", answer };
  } catch (error) {
    const message = failureAnswer(error);
    log.error(`[mail] delivery of #${id} to ${maskEmail(mail.to)} through ${provider.name} failed: ${message}`);
    const giveUp = attempts >= maxAttempts;
    await db
      .updateTable("email_outbox")
      .set({
        status: giveUp ? "failed" : "pending",
        error: message.slice(0, 500),
        attempts,
        next_attempt_at: giveUp ? null : new Date(at().getTime() + backoffSeconds(attempts) * 1000).toISOString(),
      })
      .where("id", "=", id)
      .execute();
    return { status: giveUp ? "failed" : "pending", answer: message };
  }
}

/**
 * Sends what is due at `now`: messages whose retry backoff has elapsed and reminders whose time
 * has come. Run every 5 s by the server; tests pass their own clock. Each message is claimed
 * first (its next try moved a lease ahead, only if no one else moved it), so two loops, or a loop
 * and a restart, never send it twice; a message past its `expires_at` is cancelled, not sent.
 * Returns how many were sent or attempted.
 */
export async function retryPendingMail(
  db: DB,
  settings: MailSettings,
  now: Date = new Date(),
  limit = 20,
): Promise<number> {
  const nowText = nowIso(now);
  const due = await db
    .selectFrom("email_outbox")
    .selectAll()
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", nowText)
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  let attempted = 0;
  for (const m of due) {
    if (m.expires_at && m.expires_at <= nowText) {
      await db
        .updateTable("email_outbox")
        .set({
          status: "cancelled",
          error: "Not sent: its moment had passed (the call had begun, or the next reminder was due).",
          next_attempt_at: null,
        })
        .where("id", "=", m.id)
        .where("status", "=", "pending")
        .execute();
      continue;
    }
    const claimed = await db
      .updateTable("email_outbox")
      .set({ next_attempt_at: new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString() })
      .where("id", "=", m.id)
      .where("status", "=", "pending")
      .where("next_attempt_at", "=", m.next_attempt_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    attempted++;
    const attachments: MailAttachment[] = listFromJson(m.attachments, mailAttachmentSchema);
    await deliver(
      db,
      settings,
      m.id,
      { to: m.to_email, subject: m.subject, text: m.text_body, html: m.html_body, attachments },
      m.attempts,
      now,
    );
  }
  return attempted;
}
