import { A, ButtonLink, EmailLayout, P, renderEmail, Rows, signature, SignOff, type MailStudio } from "../email/kit";
import type { Mail } from "../email/mailer.server";
import type { Env } from "../env.server";
import { callIcsAttachment, ICS_FILENAME, studioTime, visitorTime, type Call } from "./call.server";

/**
 * The messages of a built-in call moved or cancelled (issue 43.7): the client's, with the updated
 * invitation (`REQUEST` with its SEQUENCE raised, or `CANCEL`), and the studio's notice. `by` says
 * who changed it; `before` is the call as it was (a move names both times).
 */
export function callChangeMails(
  call: Call,
  change: { kind: "moved"; before: Call } | { kind: "cancelled" },
  by: "client" | "owner",
  e: Pick<Env, "APP_URL" | "STUDIO_EMAIL" | "STUDIO_TIMEZONE"> & { studio: MailStudio },
): Mail[] {
  const studio = e.studio;
  const t = visitorTime(call);
  const invitation = callIcsAttachment(call, { ...e, studioName: studio.name });
  const adminLink = `${e.APP_URL}/admin?tab=bookings&booking=${encodeURIComponent(call.bookingId)}`;
  if (change.kind === "moved") {
    const was = visitorTime(change.before);
    const lead =
      by === "client"
        ? `Your call with ${studio.name} has moved to ${t.full}.`
        : `${studio.name} moved your call to ${t.full}.`;
    const lines = [`Hi ${call.name},`, "", lead, `It was: ${was.full}`];
    if (call.joinUrl) lines.push(`Join the call: ${call.joinUrl}`);
    if (call.rescheduleUrl) lines.push(`Need another time? ${call.rescheduleUrl}`);
    lines.push("", `The attached invitation (${ICS_FILENAME}) updates it in your calendar.`, "", signature(studio), "");
    return [
      {
        to: call.email,
        subject: `Your call with ${studio.name} has moved: ${t.date}`,
        text: lines.join("\n"),
        html: renderEmail(
          <EmailLayout title="Your call has moved" preview={lead} studio={studio}>
            <P>Hi {call.name},</P>
            <P>{lead}</P>
            <P>It was: {was.full}</P>
            {call.joinUrl ? <ButtonLink href={call.joinUrl}>Join the call</ButtonLink> : null}
            {call.rescheduleUrl ? (
              <P>
                Need another time? <A href={call.rescheduleUrl}>Change or cancel the call</A>.
              </P>
            ) : null}
            <P>The attached invitation ({ICS_FILENAME}) updates it in your calendar.</P>
            <SignOff studio={studio} />
          </EmailLayout>,
        ),
        attachments: [invitation],
      },
      {
        to: e.STUDIO_EMAIL,
        subject: `Call moved: ${call.name}, now ${studioTime(call, e).full}`,
        text: `${by === "client" ? `${call.name} moved their call` : "You moved the call"}.\n\nNow: ${studioTime(call, e).full}\nWas: ${studioTime(change.before, e).full}\n\n${adminLink}\n`,
        html: renderEmail(
          <EmailLayout title="Call moved" preview={`${call.name}: ${studioTime(call, e).full}`} studio={studio}>
            <Rows
              rows={[
                ["Client", `${call.name} <${call.email}>`],
                ["Now", studioTime(call, e).full],
                ["Was", studioTime(change.before, e).full],
                ["Moved by", by === "client" ? "The client" : "You, in the console"],
              ]}
            />
            <P style={{ margin: "24px 0 0" }}>
              <A href={adminLink}>Open the booking in the admin console</A>
            </P>
          </EmailLayout>,
        ),
        // The studio's own calendar gets the same update (SEQUENCE raised, or CANCEL).
        attachments: [invitation],
      },
    ];
  }
  const lead =
    by === "client"
      ? `Your call with ${studio.name} on ${t.full} is cancelled.`
      : `${studio.name} cancelled your call on ${t.full}.`;
  const again = `${e.APP_URL}/booking`;
  return [
    {
      to: call.email,
      subject: `Your call with ${studio.name} is cancelled`,
      text: [`Hi ${call.name},`, "", lead, `To book another time: ${again}`, "", signature(studio), ""].join("\n"),
      html: renderEmail(
        <EmailLayout title="Your call is cancelled" preview={lead} studio={studio}>
          <P>Hi {call.name},</P>
          <P>{lead}</P>
          <P>
            <A href={again}>Book another time</A> whenever you like.
          </P>
          <SignOff studio={studio} />
        </EmailLayout>,
      ),
      attachments: [invitation],
    },
    {
      to: e.STUDIO_EMAIL,
      subject: `Call cancelled: ${call.name}, ${studioTime(call, e).full}`,
      text: `${by === "client" ? `${call.name} cancelled their call` : "You cancelled the call"} on ${studioTime(call, e).full}.\n\n${adminLink}\n`,
      html: renderEmail(
        <EmailLayout title="Call cancelled" preview={`${call.name}: ${studioTime(call, e).full}`} studio={studio}>
          <Rows
            rows={[
              ["Client", `${call.name} <${call.email}>`],
              ["Was", studioTime(call, e).full],
              ["Cancelled by", by === "client" ? "The client" : "You, in the console"],
            ]}
          />
          <P style={{ margin: "24px 0 0" }}>
            <A href={adminLink}>Open the booking in the admin console</A>
          </P>
        </EmailLayout>,
      ),
      // The studio's own calendar gets the same update (SEQUENCE raised, or CANCEL).
      attachments: [invitation],
    },
  ];
}
