import type { DB } from "../db/db.server";
import { A, ButtonLink, EmailLayout, P, renderEmail, Rows, type MailStudio, type Row } from "../email/kit";
import { getStudio } from "../studio/studio.server";
import { sendMail, type Mail } from "../email/mailer.server";
import type { Env } from "../env.server";
import { formatDollars } from "#domain/money";
import { archivePath, downloadUrl } from "./downloads.server";
import { refuseUnlessActive } from "./purchases.server";

type ReceiptFacts = {
  to: string;
  /** The order's number as the buyer quotes it (see `orderNumberOf`). */
  orderNumber: string;
  /** When the purchase was made (ISO 8601). */
  purchasedAt: string;
  templateName: string;
  amountPaid: number;
  licenseKey: string;
  /** A signed link straight to the archive, valid for an hour. */
  downloadLink: string;
  /** The template page, where the buyer downloads any time after signing in. */
  pageLink: string;
};

/** A purchase's order number: its id's first eight characters, upper case, after the studio's initials. */
export function orderNumberOf(purchaseId: string, studioName: string): string {
  const initials =
    studioName
      .split(/\s+/)
      .map((w) => w.replace(/[^A-Za-z0-9]/g, "").charAt(0))
      .join("")
      .slice(0, 3)
      .toUpperCase() || "NO";
  return `${initials}-${purchaseId
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 8)
    .toUpperCase()}`;
}

/**
 * The purchase receipt: the order number, the date, the amount, the license key, a download link
 * signed now, and what to do once it expires (sign in with the same email).
 */
export function receiptMail(r: ReceiptFacts, studio: MailStudio): Mail {
  const amount = formatDollars(r.amountPaid, { decimals: 2 });
  const date = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(new Date(r.purchasedAt));
  const rows: Row[] = [
    ["Order", r.orderNumber],
    ["Date", date],
    ["Template", r.templateName],
    ["Amount paid", amount],
    ["License key", r.licenseKey],
  ];
  const later = `This download link works for one hour. After that, sign in with ${r.to} and download the files from the template page any time: ${r.pageLink}`;
  return {
    to: r.to,
    subject: `Your receipt: ${r.templateName} template`,
    text: `Thanks for your purchase!\n\n${rows.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\nDownload the files: ${r.downloadLink}\n\n${later}\n`,
    html: renderEmail(
      <EmailLayout
        title="Thanks for your purchase"
        preview={`Order ${r.orderNumber}: ${r.templateName}, ${amount}.`}
        studio={studio}
      >
        <Rows rows={rows} />
        <ButtonLink href={r.downloadLink}>Download your files</ButtonLink>
        <P muted>
          This download link works for one hour. After that, sign in with {r.to} and download the files from{" "}
          <A href={r.pageLink}>the template page</A> any time.
        </P>
      </EmailLayout>,
    ),
  };
}

/**
 * Emails the receipt of an active purchase (after checkout, and again from the console) with a
 * download link signed now. Null when the purchase does not exist or no longer grants access.
 */
export async function sendReceipt(db: DB, e: Env, purchaseId: string): Promise<{ to: string; status: string }> {
  const row = refuseUnlessActive(
    await db
      .selectFrom("purchases as p")
      .innerJoin("templates as t", "t.id", "p.template_id")
      .innerJoin("users as u", "u.id", "p.user_id")
      .select([
        "p.amount_paid",
        "p.license_key",
        "p.status",
        "p.created_at",
        "t.name",
        "t.slug",
        "t.file_url",
        "u.email",
      ])
      .where("p.id", "=", purchaseId)
      .executeTakeFirst(),
  );
  const { APP_URL, SESSION_SECRET } = e;
  const { identity } = await getStudio(db, { studioEmail: e.STUDIO_EMAIL });
  const mail = receiptMail(
    {
      to: row.email,
      orderNumber: orderNumberOf(purchaseId, identity.name),
      purchasedAt: row.created_at,
      templateName: row.name,
      amountPaid: row.amount_paid,
      licenseKey: row.license_key,
      downloadLink: `${APP_URL}${downloadUrl(SESSION_SECRET, purchaseId, archivePath(row))}`,
      pageLink: `${APP_URL}/templates/${row.slug}`,
    },
    identity,
  );
  const sent = await sendMail(db, e, mail);
  return { to: row.email, status: sent.status };
}
