import crypto from "node:crypto";
import { DomainError } from "../errors";
import type { DB } from "../db/db.server";
import type { RevocationReason } from "../db/schema";
import type { Env } from "../env.server";
import { signedUrl, verifySignature } from "../storage/storage.server";
import { purchaseFor, revocationOf } from "./purchases.server";

/** What a buyer reads when a download link outlives the purchase it was signed for. */
export const DOWNLOAD_REVOKED: Record<RevocationReason | "revoked", string> = {
  refunded: "This download is no longer available because the purchase was refunded.",
  disputed: "This download is no longer available because the payment was disputed.",
  revoked: "This download is no longer available because the studio revoked access to this purchase.",
};

/**
 * The key a template download is signed with: derived from the session secret and the purchase,
 * so a link verifies only together with the purchase it was made for (decision 009).
 */
function downloadKey(secret: string, purchaseId: string): string {
  return crypto.createHmac("sha256", secret).update(`template-download\n${purchaseId}`).digest("hex");
}

/** A link to a template archive valid for 3600 s, for one purchase: `/files/template-files/…&purchase=<id>`. */
export function downloadUrl(secret: string, purchaseId: string, relPath: string, now = Date.now()): string {
  return `${signedUrl(downloadKey(secret, purchaseId), "template-files", relPath, undefined, now)}&purchase=${encodeURIComponent(purchaseId)}`;
}

/** Where a template's archive is stored: its file_url, or the slug plus .zip. */
export function archivePath(template: { slug: string; file_url: string | null }): string {
  return template.file_url || `${template.slug}.zip`;
}

/**
 * An owner's download: a signed link valid 3600 s to the archive (file_url, or the slug plus
 * .zip) and a download_logs row (ip_address left empty, as the spec says).
 */
export async function createDownload(
  db: DB,
  e: Pick<Env, "SESSION_SECRET">,
  userId: string,
  templateId: string,
): Promise<{ url: string; downloadCount: number }> {
  const template = await db
    .selectFrom("templates")
    .select(["id", "slug", "file_url"])
    .where("id", "=", templateId)
    .executeTakeFirst();
  if (!template) throw new DomainError("not-found", "Template not found");
  const purchase = await purchaseFor(db, userId, template.id);
  if (!purchase) throw new DomainError("forbidden", "You do not own this template.");
  const path = archivePath(template);
  await db
    .insertInto("download_logs")
    .values({ purchase_id: purchase.id, user_id: userId, template_id: template.id, ip_address: "" })
    .execute();
  return { url: downloadUrl(e.SESSION_SECRET, purchase.id, path), downloadCount: purchase.downloadCount + 1 };
}

/** A link that grants the download, or why it does not (the web edge answers that 403). */
export type DownloadVerdict = { ok: true } | { ok: false; message: string };

/**
 * Checks a template download link when it is used, not only when it was signed: the signature
 * (for its purchase), the expiry, and that the purchase still grants access. A refund or dispute
 * therefore ends every link already handed out.
 */
export async function checkDownloadLink(
  db: DB,
  secret: string,
  relPath: string,
  params: URLSearchParams,
  now = Date.now(),
): Promise<DownloadVerdict> {
  const refuse = (message: string): DownloadVerdict => ({ ok: false, message });
  const purchaseId = params.get("purchase");
  if (!purchaseId || !/^[A-Za-z0-9_-]{1,64}$/.test(purchaseId)) return refuse("Invalid link");
  const verdict = verifySignature(
    downloadKey(secret, purchaseId),
    "template-files",
    relPath,
    params.get("exp"),
    params.get("sig"),
    now,
  );
  if (verdict !== "ok") return refuse(verdict === "expired" ? "This link has expired" : "Invalid link");
  const purchase = await db
    .selectFrom("purchases")
    .select(["status", "stripe_session_id", "stripe_payment_intent"])
    .where("id", "=", purchaseId)
    .executeTakeFirst();
  if (!purchase) return refuse("This download is no longer available.");
  if (purchase.status === "revoked") return refuse(DOWNLOAD_REVOKED.revoked);
  if (purchase.status !== "active")
    return refuse(
      DOWNLOAD_REVOKED[
        (await revocationOf(db, [purchase.stripe_session_id, purchase.stripe_payment_intent])) ?? "refunded"
      ],
    );
  return { ok: true };
}
