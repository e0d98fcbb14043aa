import crypto from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../db/db.server";
import { bumpCatalogueVersion } from "../http/page-cache.server";
import { stringList } from "../db/json";

const LICENSE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** XXXXXXXX-XXXXXXXX-XXXXXXXX-XXXXXXXX from a cryptographic random source. */
export function generateLicenseKey(): string {
  const bytes = crypto.randomBytes(32);
  const chars = Array.from(bytes, (b) => LICENSE_ALPHABET[b % LICENSE_ALPHABET.length]);
  return [0, 8, 16, 24].map((i) => chars.slice(i, i + 8).join("")).join("-");
}

export async function ownedTemplateIds(db: DB, userId: string): Promise<Set<string>> {
  const rows = await db.selectFrom("purchases").select("template_id").where("user_id", "=", userId).where("status", "=", "active").execute();
  return new Set(rows.map((r) => r.template_id));
}

export async function purchaseFor(db: DB, userId: string, templateId: string) {
  const row = await db
    .selectFrom("purchases")
    .selectAll()
    .where("user_id", "=", userId)
    .where("template_id", "=", templateId)
    .where("status", "=", "active")
    .executeTakeFirst();
  if (!row) return null;
  const downloads = await db
    .selectFrom("download_logs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("purchase_id", "=", row.id)
    .executeTakeFirstOrThrow();
  return { id: row.id, amountPaid: row.amount_paid, licenseKey: row.license_key, createdAt: row.created_at, downloadCount: Number(downloads.n) };
}

/** The signed-in user's purchases with their templates, newest first. */
export async function myPurchases(db: DB, userId: string) {
  const rows = await db
    .selectFrom("purchases as p")
    .innerJoin("templates as t", "t.id", "p.template_id")
    .select([
      "p.id",
      "p.amount_paid",
      "p.license_key",
      "p.created_at",
      "t.id as template_id",
      "t.slug",
      "t.name",
      "t.category",
      "t.image_url",
      "t.images",
      sql<number>`(select count(*) from download_logs d where d.purchase_id = p.id)`.as("download_count"),
    ])
    .where("p.user_id", "=", userId)
    .where("p.status", "=", "active")
    .orderBy("p.created_at", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    amountPaid: r.amount_paid,
    licenseKey: r.license_key,
    createdAt: r.created_at,
    downloadCount: Number(r.download_count),
    template: { id: r.template_id, slug: r.slug, name: r.name, category: r.category, imageUrl: r.image_url ?? stringList(r.images)[0] ?? null },
  }));
}

/**
 * Records a paid Stripe checkout exactly once: the Stripe session id and the (user, template)
 * pair are unique, so replays and concurrent deliveries create one purchase. Adds one sale.
 */
export async function fulfilCheckout(
  db: DB,
  input: { stripeSessionId: string; userId: string; templateId: string; amountPaid: number },
): Promise<{ created: boolean; purchaseId: string; licenseKey: string }> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("purchases")
      .select(["id", "license_key", "status"])
      .where((eb) => eb.or([eb("stripe_session_id", "=", input.stripeSessionId), eb.and([eb("user_id", "=", input.userId), eb("template_id", "=", input.templateId)])]))
      .executeTakeFirst();
    if (existing) {
      if (existing.status !== "active") {
        await trx.updateTable("purchases").set({ status: "active" }).where("id", "=", existing.id).execute();
      }
      return { created: false, purchaseId: existing.id, licenseKey: existing.license_key };
    }
    const id = crypto.randomUUID();
    const licenseKey = generateLicenseKey();
    await trx
      .insertInto("purchases")
      .values({ id, user_id: input.userId, template_id: input.templateId, amount_paid: input.amountPaid, license_key: licenseKey, stripe_session_id: input.stripeSessionId })
      .execute();
    await trx.updateTable("templates").set((eb) => ({ sales_count: eb("sales_count", "+", 1) })).where("id", "=", input.templateId).execute();
    bumpCatalogueVersion();
    return { created: true, purchaseId: id, licenseKey };
  });
}

/** A refund removes access. */
export async function refundByStripeSession(db: DB, stripeSessionId: string): Promise<boolean> {
  const r = await db.updateTable("purchases").set({ status: "refunded" }).where("stripe_session_id", "=", stripeSessionId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
