import { getPackage, isPackageId } from "~/content/packages";
import type { BookingFormState, UploadedFile } from "~/lib/booking-state";
import type { DB } from "../db/db.server";
import type { OutboxKind } from "../db/schema";
import {
  deliverQueued,
  emailLayout,
  escapeHtml,
  queueMail,
  type Mail,
  type MailSettings,
  type QueuedMail,
} from "../email/mailer.server";
import type { Env } from "../env.server";
import { callIcsAttachment, ICS_FILENAME, studioTime, visitorTime, type Call } from "./call.server";
import { reviewOf } from "./review.server";

type Row = [label: string, value: string];

/**
 * What a booking's messages read from the environment: the console's address, the studio's
 * address and zone, the calendar link offered when no time is known.
 */
export type BookingMailSettings = Pick<Env, "APP_URL" | "STUDIO_EMAIL" | "STUDIO_TIMEZONE" | "CALENDLY_URL">;

/** The review step's rows, then the total; the studio also sees where the visit came from. */
function summaryRows(s: BookingFormState, files: UploadedFile[], forStudio: boolean): Row[] {
  const { sections, total } = reviewOf(s, files);
  const custom = s.selectedPackage === "custom";
  const rows: Row[] = [
    ...sections.flatMap((sec) => sec.rows.map(([k, v]): Row => [k, v || "—"])),
    ["Estimated total", custom ? `${total} (quoted after the call)` : total],
  ];
  if (forStudio) rows.push(["Source", s.source || "—"]);
  return rows;
}

function table(rows: Row[]): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;font-size:14px;line-height:1.5">${rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:6px 12px 6px 0;color:#5c574f;vertical-align:top;white-space:nowrap">${escapeHtml(k)}</td><td style="padding:6px 0;vertical-align:top">${escapeHtml(v)}</td></tr>`,
    )
    .join("")}</table>`;
}

const text = (rows: Row[]) => rows.map(([k, v]) => `${k}: ${v}`).join("\n");

/** How long a visitor waits for the mail provider before the confirmation page shows anyway. */
const MAIL_WAIT_MS = 3000;

/**
 * What the server knows of the call when the confirmation is written:
 * - `call`: its time (read from Calendly), shown and attached as an invitation;
 * - `confirming`: the calendar said a time was booked, the server has not read it yet;
 * - `unknown`: no word from the calendar (confirmed without scheduling, or the message was lost).
 * `remindersPromised` says whether reminders may be promised for when the time becomes known
 * (the server can learn it: a token to read it, or webhooks to hear it).
 */
export type CallKnowledge =
  | { state: "call"; call: Call; reminders: OutboxKind[] }
  | { state: "confirming" | "unknown"; remindersPromised: boolean };

export const REMINDER_OFFSETS_MS: Record<"reminder_24h" | "reminder_1h", number> = {
  reminder_24h: 24 * 60 * 60 * 1000,
  reminder_1h: 60 * 60 * 1000,
};

/** The reminders a call starting at `startAt` gets when booked or moved at `now`: those still ahead. */
export function plannedReminders(startAt: string, now: Date): ("reminder_24h" | "reminder_1h")[] {
  const start = Date.parse(startAt);
  return (["reminder_24h", "reminder_1h"] as const).filter((k) => start - REMINDER_OFFSETS_MS[k] > now.getTime());
}

function remindersSentence(kinds: OutboxKind[]): string {
  const when = kinds.map((k) => (k === "reminder_24h" ? "24 hours" : "1 hour"));
  if (!when.length) return "";
  return `We'll email you a reminder ${when.join(" and ")} before the call.`;
}

const link = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="color:#b4421a">${escapeHtml(label)}</a>`;
const para = (html: string) => `<p style="margin:0 0 16px;line-height:1.6">${html}</p>`;

/** The paragraph about the call in the client's confirmation, as text and as HTML. */
function callParagraphs(k: CallKnowledge, e: Pick<Env, "CALENDLY_URL">): { text: string; html: string } {
  if (k.state === "call") {
    const t = visitorTime(k.call);
    const textLines = [`Your call: ${t.full}`];
    const html: string[] = [para(`<strong>Your call:</strong> ${escapeHtml(t.full)}`)];
    if (k.call.joinUrl) {
      textLines.push(`Join the call: ${k.call.joinUrl}`);
      html.push(para(link(k.call.joinUrl, "Join the call")));
    }
    const change = [
      k.call.rescheduleUrl ? `reschedule: ${k.call.rescheduleUrl}` : "",
      k.call.cancelUrl ? `cancel: ${k.call.cancelUrl}` : "",
    ].filter(Boolean);
    if (change.length) {
      textLines.push(`Need another time? ${change.join(" or ")}`);
      const links = [
        k.call.rescheduleUrl ? link(k.call.rescheduleUrl, "Reschedule") : "",
        k.call.cancelUrl ? link(k.call.cancelUrl, "Cancel") : "",
      ].filter(Boolean);
      html.push(para(`Need another time? ${links.join(" or ")}`));
    }
    const after =
      `The attached invitation (${ICS_FILENAME}) adds the call to your calendar. ${remindersSentence(k.reminders)}`.trim();
    textLines.push("", after);
    html.push(para(escapeHtml(after)));
    return { text: textLines.join("\n"), html: html.join("") };
  }
  const reminders = k.remindersPromised
    ? " As soon as the calendar confirms the time to us, we'll email you reminders 24 hours and 1 hour before the call."
    : "";
  const text =
    k.state === "confirming"
      ? `Your call is booked in the calendar; we are still confirming its time. The calendar's own confirmation email (from Calendly) has the time, with links to add it to your calendar, reschedule or cancel.${reminders}`
      : `If you picked a time in the calendar, its own confirmation email (from Calendly) has it, with links to add it to your calendar, reschedule or cancel. Haven't picked a time yet? Choose one here: ${e.CALENDLY_URL}${reminders}`;
  const html =
    k.state === "confirming"
      ? para(escapeHtml(text))
      : para(
          `${escapeHtml("If you picked a time in the calendar, its own confirmation email (from Calendly) has it, with links to add it to your calendar, reschedule or cancel.")} Haven't picked a time yet? ${link(e.CALENDLY_URL, "Choose a time")}.${escapeHtml(reminders)}`,
        );
  return { text, html };
}

/** The studio's line about the call, in the studio's zone. */
function studioCallRow(k: CallKnowledge, studio: Pick<Env, "STUDIO_TIMEZONE">): Row {
  if (k.state === "call")
    return ["Call", `${studioTime(k.call, studio).full}${k.call.joinUrl ? `\nJoin: ${k.call.joinUrl}` : ""}`];
  return [
    "Call",
    k.state === "confirming"
      ? "Booked in the calendar; its time is not known yet (see Calendly's notification)"
      : "No time known (confirmed without a calendar confirmation)",
  ];
}

/** The client's confirmation and the studio's notification of a booking. */
export function bookingEmails(
  bookingId: string,
  s: BookingFormState,
  files: UploadedFile[],
  e: BookingMailSettings,
  known: CallKnowledge = { state: "unknown", remindersPromised: false },
): Mail[] {
  const rows = summaryRows(s, files, false);
  const studioRows = [studioCallRow(known, e), ...summaryRows(s, files, true)];
  const packageName = isPackageId(s.selectedPackage)
    ? `${getPackage(s.selectedPackage).name} Package`
    : s.selectedPackage;
  const adminLink = `${e.APP_URL}/admin?tab=bookings&booking=${encodeURIComponent(bookingId)}`;
  const call = callParagraphs(known, e);
  return [
    {
      to: s.email,
      subject: "Your consultation request with Studio Rowan",
      text: `Hi ${s.name},\n\nThanks for booking a free 20-minute consultation.\n\n${call.text}\n\nHere is a summary of what you told us:\n\n${text(rows)}\n\nTo prepare for the call, gather examples you like and any brand assets.\n\nTalk soon,\nRowan\n`,
      html: emailLayout(
        "Thanks, you're all set!",
        `${para(`Hi ${escapeHtml(s.name)}, thanks for booking a free 20-minute consultation.`)}${call.html}${para("Here is a summary of what you told us.")}${table(rows)}<p style="margin:24px 0 0;line-height:1.6">To prepare for the call, gather examples you like and any brand assets. Talk soon,<br>Rowan</p>`,
      ),
      ...(known.state === "call" && known.call.status === "scheduled"
        ? { attachments: [callIcsAttachment(known.call, e)] }
        : {}),
    },
    {
      to: e.STUDIO_EMAIL,
      subject: `New booking: ${s.company} (${packageName})`,
      text: `A new consultation was booked.\n\n${text(studioRows)}\n\nOpen it in the admin console: ${adminLink}\n`,
      html: emailLayout(
        "New consultation booked",
        `${table(studioRows)}<p style="margin:24px 0 0"><a href="${escapeHtml(adminLink)}" style="color:#b4421a">Open the booking in the admin console</a></p>`,
      ),
    },
  ];
}

/** A reminder of the call, 24 hours or 1 hour before it: the time, the join link and the reschedule link. */
export function reminderMail(call: Call, kind: "reminder_24h" | "reminder_1h"): Mail {
  const t = visitorTime(call);
  const subject =
    kind === "reminder_24h"
      ? `Reminder: your consultation with Studio Rowan is in 24 hours (${t.date})`
      : "Starting in 1 hour: your consultation with Studio Rowan";
  const lead =
    kind === "reminder_24h"
      ? "Your free consultation with Studio Rowan is in 24 hours."
      : "Your free consultation with Studio Rowan starts in 1 hour.";
  const textLines = [`Hi ${call.name},`, "", lead, "", `When: ${t.full}`];
  if (call.joinUrl) textLines.push(`Join the call: ${call.joinUrl}`);
  if (call.rescheduleUrl) textLines.push(`Can't make it? Reschedule: ${call.rescheduleUrl}`);
  if (call.cancelUrl) textLines.push(`Or cancel: ${call.cancelUrl}`);
  textLines.push("", "Talk soon,", "Rowan", "");
  const html = [
    para(`Hi ${escapeHtml(call.name)}, ${escapeHtml(lead.charAt(0).toLowerCase() + lead.slice(1))}`),
    para(`<strong>When:</strong> ${escapeHtml(t.full)}`),
    call.joinUrl ? para(link(call.joinUrl, "Join the call")) : "",
    call.rescheduleUrl
      ? para(
          `Can't make it? ${link(call.rescheduleUrl, "Reschedule")}${call.cancelUrl ? ` or ${link(call.cancelUrl, "cancel")}` : ""}.`,
        )
      : "",
    `<p style="margin:24px 0 0;line-height:1.6">Talk soon,<br>Rowan</p>`,
  ].join("");
  return {
    to: call.email,
    subject,
    text: textLines.join("\n"),
    html: emailLayout(kind === "reminder_24h" ? "Your call is in 24 hours" : "Your call starts in 1 hour", html),
  };
}

/**
 * Delivers a booking's queued messages (written to the outbox with the booking, in its
 * transaction). Delivery problems are logged by the mailer and never stop the booking; a slow
 * provider delays the visitor by at most MAIL_WAIT_MS, the outbox finishes the job.
 */
export async function deliverBookingEmails(db: DB, settings: MailSettings, queued: QueuedMail[]): Promise<void> {
  await Promise.all(
    queued.map((q) =>
      deliverQueued(db, settings, q, { waitMs: MAIL_WAIT_MS }).catch((error: unknown) =>
        console.error("[booking] email failed", error),
      ),
    ),
  );
}

/** Queues and delivers a booking's messages outside a transaction (when the booking itself could not be saved). */
export async function sendBookingEmails(
  db: DB,
  e: BookingMailSettings & MailSettings,
  bookingId: string,
  s: BookingFormState,
  files: UploadedFile[],
): Promise<void> {
  await deliverBookingEmails(db, e, await queueMail(db, bookingEmails(bookingId, s, files, e)));
}
