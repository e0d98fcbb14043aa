import { getPackage, isPackageId } from "~/content/packages";
import { formatDollars } from "~/lib/money";
import type { BookingFormState, UploadedFile } from "~/lib/booking-state";
import type { DB } from "../db/db.server";
import { emailLayout, escapeHtml, sendMail } from "../email/mailer.server";
import { env } from "../env.server";
import { goalLabel, priceOf } from "./booking.server";

type Row = [label: string, value: string];

function summaryRows(s: BookingFormState, files: UploadedFile[]): Row[] {
  const price = priceOf(s);
  const tier = isPackageId(s.selectedPackage) ? getPackage(s.selectedPackage) : undefined;
  const addOns = price.lines.map((l) => `${l.addOn.name}${l.quantity > 1 ? ` × ${l.quantity}` : ""} (${formatDollars(l.amount)})`);
  return [
    ["Name", s.name],
    ["Email", s.email],
    ["Company", s.company],
    ["Phone", s.phone || "—"],
    ["Package", tier ? `${tier.name} Package` : s.selectedPackage],
    ["Website", s.isNewSite ? "New site" : s.websiteUrl],
    ["Primary goal", goalLabel(s.primaryGoal)],
    ["Target audience", s.targetAudience],
    ["Inspiration", [s.inspiration1, s.inspiration2, s.inspiration3].filter(Boolean).join(", ")],
    ["Must-have features", s.mustHaveFeatures],
    ["Nice-to-have features", s.niceToHaveFeatures || "—"],
    ["Preferred start", s.preferredStartDate],
    ["Timeline", s.timelineFlexibility === "rush" ? "Strict Deadline" : "Flexible"],
    ["Add-ons", addOns.length ? addOns.join(", ") : "None"],
    ["Portfolio discount", price.discount ? `${price.discountPercent}% (−${formatDollars(price.discount)})` : "No"],
    ["Estimated total", tier?.id === "custom" ? `${tier.priceDisplay} (quoted after the call)` : formatDollars(price.total, { decimals: 2 })],
    ["Files", files.length ? files.map((f) => f.name).join(", ") : "None"],
    ["Source", s.source || "—"],
  ];
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
 * Queues the client's confirmation and the studio's notification, then delivers both. Delivery
 * problems are logged by the mailer and never stop the booking; a slow provider delays the
 * visitor by at most MAIL_WAIT_MS, the outbox finishes the job.
 */
export async function sendBookingEmails(db: DB, bookingId: string, s: BookingFormState, files: UploadedFile[]): Promise<void> {
  const e = env();
  const rows = summaryRows(s, files);
  const adminLink = `${e.APP_URL}/admin?tab=bookings&booking=${encodeURIComponent(bookingId)}`;
  const client = sendMail(
    db,
    {
      to: s.email,
      subject: "Your consultation request with Studio Rowan",
      text: `Hi ${s.name},\n\nThanks for booking a free 20-minute consultation. Here is a summary of what you told us:\n\n${text(rows)}\n\nWhat happens next:\n- Check your email for the calendar invitation.\n- Add the call to your calendar (we send reminders 24 hours and 1 hour before).\n- Prepare for the call: gather examples you like and any brand assets.\n\nTalk soon,\nRowan\n`,
      html: emailLayout(
        "Thanks, you're all set!",
        `<p style="margin:0 0 16px;line-height:1.6">Hi ${escapeHtml(s.name)}, thanks for booking a free 20-minute consultation. Here is a summary of what you told us.</p>${table(rows)}<p style="margin:24px 0 0;line-height:1.6">We send reminders 24 hours and 1 hour before the call. Talk soon,<br>Rowan</p>`,
      ),
    },
    { waitMs: MAIL_WAIT_MS },
  ).catch((error: unknown) => console.error("[booking] client email failed", error));
  const studio = sendMail(
    db,
    {
      to: e.STUDIO_EMAIL,
      subject: `New booking: ${s.company} (${rows[4][1]})`,
      text: `A new consultation was booked.\n\n${text(rows)}\n\nOpen it in the admin console: ${adminLink}\n`,
      html: emailLayout(
        "New consultation booked",
        `${table(rows)}<p style="margin:24px 0 0"><a href="${escapeHtml(adminLink)}" style="color:#b4421a">Open the booking in the admin console</a></p>`,
      ),
    },
    { waitMs: MAIL_WAIT_MS },
  ).catch((error: unknown) => console.error("[booking] studio email failed", error));
  await Promise.all([client, studio]);
}
