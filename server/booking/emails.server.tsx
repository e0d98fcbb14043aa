import type { ReactElement } from "react";
import type { StudioIdentity } from "#domain/sample/site";
import { getPackage, type Catalogue } from "#domain/catalogue";
import type { BookingFormState, UploadedFile } from "#domain/booking-state";
import type { DB } from "../db/db.server";
import type { OutboxKind } from "../db/schema";
import {
  A,
  ButtonLink,
  EmailLayout,
  P,
  renderEmail,
  RowGroups,
  Rows,
  signature,
  SignOff,
  type MailStudio,
  type Row,
  type RowGroup,
} from "../email/kit";
import { deliverQueued, queueMail, type Mail, type MailSettings, type QueuedMail } from "../email/mailer.server";
import type { Env } from "../env.server";
import { callIcsAttachment, callMinutes, ICS_FILENAME, studioTime, visitorTime, type Call } from "./call.server";
import { reviewOf } from "./review.server";
import { log } from "../log.server";

/**
 * What a booking's messages read from the environment: the console's address, the studio's
 * address and zone, the calendar link offered when no time is known.
 */
export type BookingMailSettings = Pick<Env, "APP_URL" | "STUDIO_EMAIL" | "STUDIO_TIMEZONE" | "CALENDLY_URL"> & {
  /** The studio's words and prices as saved in Settings (the adapter reads them with getStudio). */
  studio: { identity: StudioIdentity; catalogue: Catalogue };
};

/** The answers as the review step shows them (its sections and rows), then the estimate. */
function summary(s: BookingFormState, files: UploadedFile[], catalogue: Catalogue): RowGroup[] {
  const { sections, total } = reviewOf(s, files, catalogue);
  const custom = s.selectedPackage === "custom";
  return [
    ...sections.map((sec) => ({ title: sec.title, rows: sec.rows.map(([k, v]): Row => [k, v || "—"]) })),
    { title: "Estimate", rows: [["Estimated total", custom ? `${total} (quoted after the call)` : total]] },
  ];
}

/** The studio's rows: the same answers, and where the visit came from (never shown to the client). */
function studioRows(s: BookingFormState, files: UploadedFile[], catalogue: Catalogue): Row[] {
  return [...summary(s, files, catalogue).flatMap((g) => g.rows), ["Source", s.source || "—"]];
}

const text = (rows: Row[]) => rows.map(([k, v]) => `${k}: ${v}`).join("\n");
const groupsText = (groups: RowGroup[]) => groups.map((g) => `${g.title}\n${text(g.rows)}`).join("\n\n");

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
  | { state: "confirming" | "unknown"; remindersPromised: boolean }
  /** The built-in calendar had no free time to offer: the studio writes to find one. */
  | { state: "unscheduled" };

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

/** The paragraphs about the call in the client's confirmation, as text and as the message's part. */
function callParagraphs(k: CallKnowledge, e: BookingMailSettings): { text: string; html: ReactElement } {
  if (k.state === "call") {
    const t = visitorTime(k.call);
    const { joinUrl, rescheduleUrl, cancelUrl } = k.call;
    const textLines = [`Your call: ${t.full}`];
    if (joinUrl) textLines.push(`Join the call: ${joinUrl}`);
    const change = [
      rescheduleUrl ? `reschedule: ${rescheduleUrl}` : "",
      cancelUrl ? `cancel: ${cancelUrl}` : "",
    ].filter(Boolean);
    if (change.length) textLines.push(`Need another time? ${change.join(" or ")}`);
    const after =
      `The attached invitation (${ICS_FILENAME}) adds the call to your calendar. ${remindersSentence(k.reminders)}`.trim();
    textLines.push("", after);
    return {
      text: textLines.join("\n"),
      html: (
        <>
          <P>
            <strong>Your call:</strong> {t.full}
          </P>
          {joinUrl ? <ButtonLink href={joinUrl}>Join the call</ButtonLink> : null}
          {rescheduleUrl || cancelUrl ? (
            <P>
              Need another time? {rescheduleUrl ? <A href={rescheduleUrl}>Reschedule</A> : null}
              {rescheduleUrl && cancelUrl ? " or " : null}
              {cancelUrl ? <A href={cancelUrl}>Cancel</A> : null}
            </P>
          ) : null}
          <P>{after}</P>
        </>
      ),
    };
  }
  if (k.state === "unscheduled") {
    const text =
      "There were no free times to pick from when you booked, so we will email you within one business day to find a time for the call.";
    return { text, html: <P>{text}</P> };
  }
  const reminders = k.remindersPromised
    ? " As soon as the calendar confirms the time to us, we'll email you reminders 24 hours and 1 hour before the call."
    : "";
  const fromCalendly =
    "If you picked a time in the calendar, its own confirmation email (from Calendly) has it, with links to add it to your calendar, reschedule or cancel.";
  if (k.state === "confirming") {
    const text = `Your call is booked in the calendar; we are still confirming its time. The calendar's own confirmation email (from Calendly) has the time, with links to add it to your calendar, reschedule or cancel.${reminders}`;
    return { text, html: <P>{text}</P> };
  }
  return {
    text: `${fromCalendly} Haven't picked a time yet? Choose one here: ${e.studio.identity.calendarUrl || e.CALENDLY_URL}${reminders}`,
    html: (
      <P>
        {fromCalendly} Haven&apos;t picked a time yet?{" "}
        <A href={e.studio.identity.calendarUrl || e.CALENDLY_URL}>Choose a time</A>.{reminders}
      </P>
    ),
  };
}

/** The studio's line about the call, in the studio's zone. */
function studioCallRow(k: CallKnowledge, studio: Pick<Env, "STUDIO_TIMEZONE">): Row {
  if (k.state === "call")
    return ["Call", `${studioTime(k.call, studio).full}${k.call.joinUrl ? `\nJoin: ${k.call.joinUrl}` : ""}`];
  if (k.state === "unscheduled")
    return ["Call", "No time picked (the calendar had no free times): write to the client"];
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
  const { identity, catalogue } = e.studio;
  const groups = summary(s, files, catalogue);
  const forStudio = [studioCallRow(known, e), ...studioRows(s, files, catalogue)];
  const tier = getPackage(catalogue, s.selectedPackage);
  const packageName = tier ? `${tier.name} Package` : s.selectedPackage;
  const adminLink = `${e.APP_URL}/admin?tab=bookings&booking=${encodeURIComponent(bookingId)}`;
  const call = callParagraphs(known, e);
  const length = known.state === "call" ? `${callMinutes(known.call)}-minute` : "20-minute";
  return [
    {
      to: s.email,
      subject: `Your consultation request with ${identity.name}`,
      text: `Hi ${s.name},\n\nThanks for booking a free ${length} consultation.\n\n${call.text}\n\nHere is a summary of what you told us:\n\n${groupsText(groups)}\n\nTo prepare for the call, gather examples you like and any brand assets.\n\nTalk soon,\n${signature(identity)}\n`,
      html: renderEmail(
        <EmailLayout
          title="Thanks, you're all set!"
          preview={`Your free consultation with ${identity.name} is booked.`}
          studio={identity}
        >
          <P>
            Hi {s.name}, thanks for booking a free {length} consultation.
          </P>
          {call.html}
          <P>Here is a summary of what you told us.</P>
          <RowGroups groups={groups} />
          <P style={{ margin: "24px 0 0" }}>To prepare for the call, gather examples you like and any brand assets.</P>
          <SignOff studio={identity} />
        </EmailLayout>,
      ),
      ...(known.state === "call" && known.call.status === "scheduled"
        ? { attachments: [callIcsAttachment(known.call, { ...e, studioName: identity.name })] }
        : {}),
    },
    {
      to: e.STUDIO_EMAIL,
      subject: `New booking: ${s.company} (${packageName})`,
      text: `A new consultation was booked.\n\n${text(forStudio)}\n\nOpen it in the admin console: ${adminLink}\n`,
      html: renderEmail(
        <EmailLayout
          title="New consultation booked"
          preview={`${s.company} booked a consultation (${packageName}).`}
          studio={identity}
        >
          <Rows rows={forStudio} />
          <P style={{ margin: "24px 0 0" }}>
            <A href={adminLink}>Open the booking in the admin console</A>
          </P>
        </EmailLayout>,
      ),
    },
  ];
}

/** A reminder of the call, 24 hours or 1 hour before it: the time, the join link and the reschedule link. */
export function reminderMail(call: Call, kind: "reminder_24h" | "reminder_1h", studio: MailStudio): Mail {
  const t = visitorTime(call);
  const subject =
    kind === "reminder_24h"
      ? `Reminder: your consultation with ${studio.name} is in 24 hours (${t.date})`
      : `Starting in 1 hour: your consultation with ${studio.name}`;
  const lead =
    kind === "reminder_24h"
      ? `Your free consultation with ${studio.name} is in 24 hours.`
      : `Your free consultation with ${studio.name} starts in 1 hour.`;
  const textLines = [`Hi ${call.name},`, "", lead, "", `When: ${t.full}`];
  if (call.joinUrl) textLines.push(`Join the call: ${call.joinUrl}`);
  if (call.rescheduleUrl) textLines.push(`Can't make it? Reschedule: ${call.rescheduleUrl}`);
  if (call.cancelUrl) textLines.push(`Or cancel: ${call.cancelUrl}`);
  textLines.push("", "Talk soon,", signature(studio), "");
  const title = kind === "reminder_24h" ? "Your call is in 24 hours" : "Your call starts in 1 hour";
  const html = renderEmail(
    <EmailLayout title={title} preview={`${lead} ${t.full}`} studio={studio}>
      <P>
        Hi {call.name}, {lead.charAt(0).toLowerCase() + lead.slice(1)}
      </P>
      <P>
        <strong>When:</strong> {t.full}
      </P>
      {call.joinUrl ? <ButtonLink href={call.joinUrl}>Join the call</ButtonLink> : null}
      {call.rescheduleUrl ? (
        <P>
          Can&apos;t make it? <A href={call.rescheduleUrl}>Reschedule</A>
          {call.cancelUrl ? (
            <>
              {" "}
              or <A href={call.cancelUrl}>cancel</A>
            </>
          ) : null}
          .
        </P>
      ) : null}
      <SignOff studio={studio} />
    </EmailLayout>,
  );
  return {
    to: call.email,
    subject,
    text: textLines.join("\n"),
    html,
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
        log.error({ err: error }, "[booking] email failed"),
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
