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
  SignOff,
  type MailStudio,
  type Row,
} from "../email/kit";
import type { Mail } from "../email/mailer.server";

/** What the payment emails of a stage say (issue 31). */
export type StageMailFacts = {
  studio: MailStudio;
  /** The client's address. */
  to: string;
  /** Where the studio's notices go (STUDIO_EMAIL). */
  studioTo: string;
  clientName: string;
  company: string;
  /** "Growth website" */
  project: string;
  stageLabel: string;
  amount: number;
  total: number;
  /** YYYY-MM-DD */
  dueOn: string;
  /** `APP_URL/pay/<token>` */
  payLink: string;
  /** The console's page of the booking. */
  adminLink: string;
  /** `APP_URL/pay/<token>/invoice.pdf`: the stage's invoice (issue 44.7). */
  invoiceLink?: string;
};

const lines = (rows: Row[]) => rows.map(([k, v]) => `${k}: ${v}`).join("\n");

/**
 * The payment request (and, with `reminder`, its reminders on the due date and after it): what it
 * is for, the amount, the due date, and the link to `/pay/<token>`.
 */
export function paymentRequestMail(f: StageMailFacts & { reminder?: "due" | "overdue" }): Mail {
  const amount = formatMoney(f.amount);
  const due = formatCalendarDate(f.dueOn);
  const rows: Row[] = [
    ["For", `${f.stageLabel}, ${f.project} for ${f.company}`],
    ["Amount", amount],
    ["Due", due],
  ];
  const subject =
    f.reminder === "overdue"
      ? `Reminder: ${f.stageLabel} payment of ${amount} was due ${due}`
      : f.reminder === "due"
        ? `Reminder: ${f.stageLabel} payment of ${amount} is due today`
        : `Payment request from ${f.studio.name}: ${f.stageLabel}, ${amount}`;
  const opening =
    f.reminder === "overdue"
      ? `A friendly reminder: the ${f.stageLabel.toLowerCase()} payment for your project was due on ${due} and we have not received it yet.`
      : f.reminder === "due"
        ? `A friendly reminder: the ${f.stageLabel.toLowerCase()} payment for your project is due today.`
        : `Here is the ${f.stageLabel.toLowerCase()} payment for your project. You can pay by card, Apple Pay or Google Pay on the page below.`;
  return {
    to: f.to,
    subject,
    text: `Hi ${f.clientName},\n\n${opening}\n\n${lines(rows)}\n\nPay here: ${f.payLink}\n${f.invoiceLink ? `Invoice (PDF): ${f.invoiceLink}\n` : ""}\nIf you already paid, thank you, and please ignore this message.\n`,
    html: renderEmail(
      <EmailLayout title={subject} preview={`${f.stageLabel}: ${amount}, due ${due}.`} studio={f.studio}>
        <P>Hi {f.clientName},</P>
        <P>{opening}</P>
        <Rows rows={rows} />
        <ButtonLink href={f.payLink}>Pay {amount}</ButtonLink>
        <PasteLink href={f.payLink} />
        {f.invoiceLink ? (
          <P muted>
            <A href={f.invoiceLink} muted>
              Download the invoice (PDF)
            </A>
          </P>
        ) : null}
        <P muted>If you already paid, thank you, and please ignore this message.</P>
        <SignOff studio={f.studio} />
      </EmailLayout>,
    ),
  };
}

/** The client's receipt once a stage is paid by card. */
export function paymentReceiptMail(f: StageMailFacts & { paidAt: string }): Mail {
  const amount = formatMoney(f.amount);
  const rows: Row[] = [
    ["For", `${f.stageLabel}, ${f.project} for ${f.company}`],
    ["Amount paid", amount],
    ["Paid on", formatCalendarDate(f.paidAt.slice(0, 10))],
  ];
  return {
    to: f.to,
    subject: `Receipt: ${f.stageLabel} payment of ${amount} received`,
    text: `Hi ${f.clientName},\n\nThank you: we received your payment.\n\n${lines(rows)}\n\nYour payment page: ${f.payLink}\n${f.invoiceLink ? `Receipt (PDF): ${f.invoiceLink.replace(/invoice\.pdf$/, "receipt.pdf")}\n` : ""}`,
    html: renderEmail(
      <EmailLayout title="Payment received" preview={`${f.stageLabel}: ${amount} received.`} studio={f.studio}>
        <P>Hi {f.clientName},</P>
        <P>Thank you: we received your payment.</P>
        <Rows rows={rows} />
        <P muted>
          <A href={f.payLink} muted>
            Your payment page
          </A>{" "}
          shows it as paid.
          {f.invoiceLink ? (
            <>
              {" "}
              <A href={f.invoiceLink.replace(/invoice\.pdf$/, "receipt.pdf")} muted>
                Download the receipt (PDF)
              </A>
            </>
          ) : null}
        </P>
        <SignOff studio={f.studio} />
      </EmailLayout>,
    ),
  };
}

/** The studio's notice once a stage is paid by card, with the Stripe payment. */
export function paymentNoticeMail(f: StageMailFacts & { paidAt: string; paymentIntent: string | null }): Mail {
  const amount = formatMoney(f.amount);
  const rows: Row[] = [
    ["Client", `${f.clientName}, ${f.company}`],
    ["Stage", f.stageLabel],
    ["Amount", amount],
    ["Stripe payment", f.paymentIntent ?? "(not given)"],
  ];
  return {
    to: f.studioTo,
    subject: `Paid: ${f.company}, ${f.stageLabel} (${amount})`,
    text: `${f.clientName} paid by card.\n\n${lines(rows)}\n\nOpen the booking: ${f.adminLink}\n`,
    html: renderEmail(
      <EmailLayout title="Payment received" preview={`${f.company} paid ${amount}.`} studio={f.studio}>
        <Rows rows={rows} />
        <P style={{ margin: "24px 0 0" }}>
          <A href={f.adminLink}>Open the booking in the admin console</A>
        </P>
      </EmailLayout>,
    ),
  };
}
