import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import {
  A,
  ButtonLink,
  EmailLayout,
  P,
  PasteLink,
  renderEmail,
  Rows,
  signature,
  SignOff,
  type MailStudio,
  type Row,
} from "../email/kit";
import type { Mail, MailAttachment } from "../email/mailer.server";
import type { StageMailFacts } from "../payments/emails.server";

/**
 * The messages of a proposal (issue 44): sent to the client, signed (with the sealed PDF, and the
 * deposit's link when card payments are on), declined, countersigned.
 */

export type ProposalMailFacts = {
  studio: MailStudio;
  studioTo: string;
  clientTo: string;
  clientName: string;
  company: string;
  title: string;
  reference: string;
  total: number;
  expiresOn: string;
  /** `APP_URL/proposal/<token>` */
  link: string;
  /** The console's page of the booking. */
  adminLink: string;
};

const lines = (rows: Row[]) => rows.map(([k, v]) => `${k}: ${v}`).join("\n");

export function pdfAttachment(filename: string, pdf: Uint8Array): MailAttachment {
  return { filename, contentType: "application/pdf", content: Buffer.from(pdf).toString("base64"), encoding: "base64" };
}

/** The proposal, sent (or a revision of it). */
export function proposalSentMail(f: ProposalMailFacts, revision: boolean): Mail {
  const rows: Row[] = [
    ["Proposal", `${f.title} (${f.reference})`],
    ["Total", formatMoney(f.total)],
    ["Open until", formatCalendarDate(f.expiresOn)],
  ];
  const subject = revision
    ? `Revised proposal from ${f.studio.name}: ${f.title}`
    : `Your proposal from ${f.studio.name}: ${f.title}`;
  const lead = revision
    ? "Here is the revised proposal for your project; it replaces the one we sent before."
    : "Thank you for the call. Here is the proposal for your project: the scope, the price, the payment plan and the terms.";
  return {
    to: f.clientTo,
    subject,
    text: `Hi ${f.clientName},\n\n${lead}\n\n${lines(rows)}\n\nRead and sign it here: ${f.link}\n\n${signature(f.studio)}\n`,
    html: renderEmail(
      <EmailLayout title={subject} preview={lead} studio={f.studio}>
        <P>Hi {f.clientName},</P>
        <P>{lead}</P>
        <Rows rows={rows} />
        <ButtonLink href={f.link}>Read and sign the proposal</ButtonLink>
        <PasteLink href={f.link} />
        <SignOff studio={f.studio} />
      </EmailLayout>,
    ),
  };
}

/**
 * The client's copy once signed, the sealed PDF attached: with the deposit's link ("Signed, here
 * is your deposit") when the first stage was requested, or saying the studio will send it.
 */
export function signedClientMail(
  f: ProposalMailFacts,
  pdf: MailAttachment,
  deposit: StageMailFacts | null,
  signedOn: string,
): Mail {
  const subject = deposit ? "Signed, here is your deposit" : `Signed: ${f.title}`;
  const rows: Row[] = [
    ["Proposal", `${f.title} (${f.reference})`],
    ["Signed on", formatCalendarDate(signedOn)],
  ];
  if (deposit) rows.push(["Deposit", `${formatMoney(deposit.amount)}, due ${formatCalendarDate(deposit.dueOn)}`]);
  const lead = `Thank you for signing. The signed agreement is attached as a PDF; keep it for your records.`;
  const next = deposit
    ? `The next step is the ${deposit.stageLabel.toLowerCase()}: you can pay it by card, Apple Pay or Google Pay now.`
    : `${f.studio.name} will send you the first payment's details.`;
  return {
    to: f.clientTo,
    subject,
    text: `Hi ${f.clientName},\n\n${lead}\n\n${lines(rows)}\n\n${next}\n${deposit ? `\nPay here: ${deposit.payLink}\n` : ""}\nThe proposal: ${f.link}\n\n${signature(f.studio)}\n`,
    attachments: [pdf],
    html: renderEmail(
      <EmailLayout title={subject} preview={lead} studio={f.studio}>
        <P>Hi {f.clientName},</P>
        <P>{lead}</P>
        <Rows rows={rows} />
        <P>{next}</P>
        {deposit ? (
          <>
            <ButtonLink href={deposit.payLink}>Pay the deposit, {formatMoney(deposit.amount)}</ButtonLink>
            <PasteLink href={deposit.payLink} />
          </>
        ) : null}
        <SignOff studio={f.studio} />
      </EmailLayout>,
    ),
  };
}

/** The studio's notice of a signature (the PDF attached), or of a decline with its reason. */
export function studioNoticeMail(
  f: ProposalMailFacts,
  what:
    { kind: "signed"; name: string; pdf: MailAttachment; countersign: boolean } | { kind: "declined"; reason: string },
): Mail {
  const signed = what.kind === "signed";
  const subject = signed
    ? `Signed: ${f.company} signed ${f.reference}`
    : `Declined: ${f.company} declined ${f.reference}`;
  const rows: Row[] = signed
    ? [
        ["Client", `${f.clientName}, ${f.company}`],
        ["Signed as", what.name],
        ["Total", formatMoney(f.total)],
      ]
    : [
        ["Client", `${f.clientName}, ${f.company}`],
        ["Reason", what.reason || "(none given)"],
      ];
  const after = signed && what.countersign ? "Countersign it in the console to complete the agreement." : "";
  return {
    to: f.studioTo,
    subject,
    text: `${lines(rows)}\n\n${after ? `${after}\n` : ""}Open the booking: ${f.adminLink}\n`,
    ...(signed ? { attachments: [what.pdf] } : {}),
    html: renderEmail(
      <EmailLayout title={subject} preview={subject} studio={f.studio}>
        <Rows rows={rows} />
        {after ? <P>{after}</P> : null}
        <P style={{ margin: "24px 0 0" }}>
          <A href={f.adminLink}>Open the booking in the admin console</A>
        </P>
      </EmailLayout>,
    ),
  };
}

/** Both sides' copy once the studio countersigned: the PDF carrying both signatures. */
export function countersignedMail(f: ProposalMailFacts, pdf: MailAttachment, to: string): Mail {
  const subject = `Countersigned: ${f.title} (${f.reference})`;
  const lead = `${f.studio.name} countersigned the agreement. The copy signed by both sides is attached as a PDF.`;
  return {
    to,
    subject,
    text: `${lead}\n\nThe proposal: ${f.link}\n\n${signature(f.studio)}\n`,
    attachments: [pdf],
    html: renderEmail(
      <EmailLayout title={subject} preview={lead} studio={f.studio}>
        <P>{lead}</P>
        <P muted>
          <A href={f.link} muted>
            The proposal
          </A>
        </P>
        <SignOff studio={f.studio} />
      </EmailLayout>,
    ),
  };
}
