import { TRPCError } from "@trpc/server";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { signedUrl } from "../storage/storage.server";
import { purchaseFor } from "./purchases.server";

/**
 * An owner's download: a signed link valid 3600 s to the archive (file_url, or the slug plus
 * .zip) and a download_logs row (ip_address left empty, as the spec says).
 */
export async function createDownload(db: DB, userId: string, templateId: string): Promise<{ url: string; downloadCount: number }> {
  const template = await db.selectFrom("templates").select(["id", "slug", "file_url"]).where("id", "=", templateId).executeTakeFirst();
  if (!template) throw new TRPCError({ code: "NOT_FOUND", message: "Template not found" });
  const purchase = await purchaseFor(db, userId, template.id);
  if (!purchase) throw new TRPCError({ code: "FORBIDDEN", message: "You do not own this template." });
  const path = template.file_url || `${template.slug}.zip`;
  await db.insertInto("download_logs").values({ purchase_id: purchase.id, user_id: userId, template_id: template.id, ip_address: "" }).execute();
  return { url: signedUrl(env().SESSION_SECRET, "template-files", path), downloadCount: purchase.downloadCount + 1 };
}
