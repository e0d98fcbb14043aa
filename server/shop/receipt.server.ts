import type { DB } from "../db/db.server";
import { emailLayout, escapeHtml, sendMail, type Mail } from "../email/mailer.server";
import type { Env } from "../env.server";
import { formatDollars } from "~/lib/money";
import { archivePath, downloadUrl } from "./downloads.server";
import { refuseUnlessActive } from "./purchases.server";

type ReceiptFacts = {
  to: string;
  templateName: string;
  amountPaid: number;
  licenseKey: string;
  /** A signed link straight to the archive, valid for an hour. */
  downloadLink: string;
  /** The template page, where the buyer downloads any time after signing in. */
  pageLink: string;
};

/** The purchase receipt: the license key, a fresh download link, and what to do once it expires. */
export function receiptMail(r: ReceiptFacts): Mail {
  const amount = formatDollars(r.amountPaid, { decimals: 2 });
  const later = `This download link works for one hour. After that, sign in with ${r.to} and download the files from the template page any time: ${r.pageLink}`;
  return {
    to: r.to,
    subject: `Your receipt: ${r.templateName} template`,
    text: `Thanks for your purchase!\n\nTemplate: ${r.templateName}\nAmount paid: ${amount}\nLicense key: ${r.licenseKey}\n\nDownload the files: ${r.downloadLink}\n\n${later}\n`,
    html: emailLayout(
      "Thanks for your purchase",
      `<p style="line-height:1.6">Template: <strong>${escapeHtml(r.templateName)}</strong><br>Amount paid: ${escapeHtml(amount)}<br>License key: <code>${escapeHtml(r.licenseKey)}</code></p>` +
        `<p><a href="${escapeHtml(r.downloadLink)}" style="color:#047857">Download your files</a></p>` +
        `<p style="line-height:1.6;color:#57534e">This download link works for one hour. After that, sign in with ${escapeHtml(r.to)} and download the files from <a href="${escapeHtml(r.pageLink)}" style="color:#047857">the template page</a> any time.</p>`,
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
      .select(["p.amount_paid", "p.license_key", "p.status", "t.name", "t.slug", "t.file_url", "u.email"])
      .where("p.id", "=", purchaseId)
      .executeTakeFirst(),
  );
  const { APP_URL, SESSION_SECRET } = e;
  const mail = receiptMail({
    to: row.email,
    templateName: row.name,
    amountPaid: row.amount_paid,
    licenseKey: row.license_key,
    downloadLink: `${APP_URL}${downloadUrl(SESSION_SECRET, purchaseId, archivePath(row))}`,
    pageLink: `${APP_URL}/templates/${row.slug}`,
  });
  const sent = await sendMail(db, e, mail);
  return { to: row.email, status: sent.status };
}
