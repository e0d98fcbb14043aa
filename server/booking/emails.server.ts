import { getPackage, isPackageId } from "~/content/packages";
import type { BookingFormState, UploadedFile } from "~/lib/booking-state";
import type { DB } from "../db/db.server";
import { deliverQueued, emailLayout, escapeHtml, queueMail, type Mail, type QueuedMail } from "../email/mailer.server";
import { env } from "../env.server";
import { reviewOf } from "./review.server";

type Row = [label: string, value: string];

/** The review step's rows, then the total; the studio also sees where the visit came from. */
function summaryRows(s: BookingFormState, files: UploadedFile[], forStudio: boolean): Row[] {
  const { sections, total } = reviewOf(s, files);
  const custom = s.selectedPackage === "custom";
  const rows: Row[] = [...sections.flatMap((sec) => sec.rows.map(([k, v]): Row => [k, v || "—"])), ["Estimated total", custom ? `${total} (quoted after the call)` : total]];
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

/** The client's confirmation and the studio's notification of a booking. */
export function bookingEmails(bookingId: string, s: BookingFormState, files: UploadedFile[]): Mail[] {
  const e = env();
  const rows = summaryRows(s, files, false);
  const studioRows = summaryRows(s, files, true);
  const packageName = isPackageId(s.selectedPackage) ? `${getPackage(s.selectedPackage).name} Package` : s.selectedPackage;
  const adminLink = `${e.APP_URL}/admin?tab=bookings&booking=${encodeURIComponent(bookingId)}`;
  return [
    {
      to: s.email,
      subject: "Your consultation request with Studio Rowan",
      text: `Hi ${s.name},\n\nThanks for booking a free 20-minute consultation. Here is a summary of what you told us:\n\n${text(rows)}\n\nWhat happens next:\n- Check your email for the calendar invitation.\n- Add the call to your calendar (we send reminders 24 hours and 1 hour before).\n- Prepare for the call: gather examples you like and any brand assets.\n\nTalk soon,\nRowan\n`,
      html: emailLayout(
        "Thanks, you're all set!",
        `<p style="margin:0 0 16px;line-height:1.6">Hi ${escapeHtml(s.name)}, thanks for booking a free 20-minute consultation. Here is a summary of what you told us.</p>${table(rows)}<p style="margin:24px 0 0;line-height:1.6">We send reminders 24 hours and 1 hour before the call. Talk soon,<br>Rowan</p>`,
      ),
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

/**
 * Delivers a booking's queued messages (written to the outbox with the booking, in its
 * transaction). Delivery problems are logged by the mailer and never stop the booking; a slow
 * provider delays the visitor by at most MAIL_WAIT_MS, the outbox finishes the job.
 */
export async function deliverBookingEmails(db: DB, queued: QueuedMail[]): Promise<void> {
  await Promise.all(queued.map((q) => deliverQueued(db, q, { waitMs: MAIL_WAIT_MS }).catch((error: unknown) => console.error("[booking] email failed", error))));
}

/** Queues and delivers a booking's messages outside a transaction (when the booking itself could not be saved). */
export async function sendBookingEmails(db: DB, bookingId: string, s: BookingFormState, files: UploadedFile[]): Promise<void> {
  await deliverBookingEmails(db, await queueMail(db, bookingEmails(bookingId, s, files)));
}
