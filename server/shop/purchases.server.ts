import crypto from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { DB } from "../db/db.server";
import { nowIso, stringList } from "../db/json";
import type { Database, RevocationReason } from "../db/schema";
import { DomainError } from "../errors";
import { announceCatalogueChange } from "../db/catalogue-version.server";
import { recordSale } from "../payments/ledger.server";
import { takeSalesBack } from "../payments/refunds.server";

const LICENSE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** XXXXXXXX-XXXXXXXX-XXXXXXXX-XXXXXXXX from a cryptographic random source. */
export function generateLicenseKey(): string {
  const bytes = crypto.randomBytes(32);
  const chars = Array.from(bytes, (b) => LICENSE_ALPHABET[b % LICENSE_ALPHABET.length]);
  return [0, 8, 16, 24].map((i) => chars.slice(i, i + 8).join("")).join("-");
}

export async function ownedTemplateIds(db: DB, userId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom("purchases")
    .select("template_id")
    .where("user_id", "=", userId)
    .where("status", "=", "active")
    .execute();
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
  return {
    id: row.id,
    amountPaid: row.amount_paid,
    licenseKey: row.license_key,
    createdAt: row.created_at,
    downloadCount: Number(downloads.n),
  };
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
    template: {
      id: r.template_id,
      slug: r.slug,
      name: r.name,
      category: r.category,
      imageUrl: r.image_url ?? stringList(r.images)[0] ?? null,
    },
  }));
}

/** What one paid checkout session came to. */
export type FulfilResult =
  | { outcome: "created"; purchaseId: string; licenseKey: string }
  | { outcome: "existing"; purchaseId: string; licenseKey: string }
  | { outcome: "revoked"; reason: RevocationReason };

type Executor = DB | Transaction<Database>;

/**
 * Why the first of these Stripe ids (checkout sessions, payment intents) was revoked, or null
 * when none was refunded or disputed.
 */
export async function revocationOf(
  db: Executor,
  stripeIds: readonly (string | null | undefined)[],
): Promise<RevocationReason | null> {
  const ids = stripeIds.filter((x): x is string => Boolean(x));
  if (!ids.length) return null;
  const row = await db
    .selectFrom("stripe_revocations")
    .select("reason")
    .where("stripe_id", "in", ids)
    // The first revocation wins; two written in the same millisecond are told apart by insertion order.
    .orderBy("created_at")
    .orderBy(sql`rowid`)
    .limit(1)
    .executeTakeFirst();
  return row?.reason ?? null;
}

/**
 * Records a paid Stripe checkout exactly once: the Stripe session id and the (user, template)
 * pair are unique, so replays and concurrent deliveries create one purchase. Adds one sale.
 *
 * A refunded or disputed session (or payment intent) is terminal (decision 009): it never
 * creates, revives or keeps a purchase, whichever of Stripe's events or the success URL comes
 * last. A buyer whose earlier purchase was revoked and who pays again through a new session gets
 * the purchase back under the new session, with a new license key.
 */
export async function fulfilCheckout(
  db: DB,
  input: {
    stripeSessionId: string;
    paymentIntent: string | null;
    userId: string;
    templateId: string;
    amountPaid: number;
  },
): Promise<FulfilResult> {
  return db.transaction().execute(async (trx): Promise<FulfilResult> => {
    const revoked = await revocationOf(trx, [input.stripeSessionId, input.paymentIntent]);
    if (revoked) return { outcome: "revoked", reason: revoked };
    const cols = ["id", "license_key", "status"] as const;
    const ofSession = await trx
      .selectFrom("purchases")
      .select(cols)
      .where("stripe_session_id", "=", input.stripeSessionId)
      .executeTakeFirst();
    if (ofSession) {
      // A session whose purchase lost access (refunded before revocations were remembered) stays so.
      if (ofSession.status !== "active") return { outcome: "revoked", reason: "refunded" };
      return { outcome: "existing", purchaseId: ofSession.id, licenseKey: ofSession.license_key };
    }
    const owned = await trx
      .selectFrom("purchases")
      .select(cols)
      .where("user_id", "=", input.userId)
      .where("template_id", "=", input.templateId)
      .executeTakeFirst();
    if (owned?.status === "active") return { outcome: "existing", purchaseId: owned.id, licenseKey: owned.license_key };
    const licenseKey = generateLicenseKey();
    const paid = {
      amount_paid: input.amountPaid,
      license_key: licenseKey,
      stripe_session_id: input.stripeSessionId,
      stripe_payment_intent: input.paymentIntent,
    };
    let id: string;
    if (owned) {
      // Revoked before; paid again through this new session: a new purchase in the same row.
      id = owned.id;
      await trx
        .updateTable("purchases")
        .set({ ...paid, status: "active", revoked_at: null, created_at: nowIso() })
        .where("id", "=", id)
        .execute();
    } else {
      id = crypto.randomUUID();
      await trx
        .insertInto("purchases")
        .values({ id, user_id: input.userId, template_id: input.templateId, ...paid })
        .execute();
    }
    await trx
      .updateTable("templates")
      .set((eb) => ({ sales_count: eb("sales_count", "+", 1) }))
      .where("id", "=", input.templateId)
      .execute();
    // The sale in the ledger (issue 31): money received, by card, once per checkout session.
    await recordSale(trx, {
      purchaseId: id,
      userId: input.userId,
      templateId: input.templateId,
      amount: input.amountPaid,
      paymentIntent: input.paymentIntent,
      checkoutSession: input.stripeSessionId,
    });
    await announceCatalogueChange(trx);
    return { outcome: "created", purchaseId: id, licenseKey };
  });
}

/** Why a purchase that was refunded, disputed or revoked can't be revoked or sent a receipt. */
export const NO_ACCESS = "This purchase no longer grants access.";

/** The purchase, or the domain's refusal: not found, or no longer granting access. */
export function refuseUnlessActive<T extends { status: string }>(row: T | undefined): T {
  if (!row) throw new DomainError("not-found", "Purchase not found");
  if (row.status !== "active") throw new DomainError("conflict", NO_ACCESS);
  return row;
}

/**
 * The studio takes a buyer's access away (issue 19.7): the purchase is marked `revoked` with the
 * time, its sale comes off the catalogue count, and every download link already handed out is
 * refused from then on (links are checked against the purchase when used). Paying again through
 * a new checkout gives access again, as after a refund.
 */
export async function revokeAccess(db: DB, purchaseId: string, now: string = nowIso()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = refuseUnlessActive(
      await trx
        .selectFrom("purchases")
        .select(["status", "template_id"])
        .where("id", "=", purchaseId)
        .executeTakeFirst(),
    );
    await trx
      .updateTable("purchases")
      .set({ status: "revoked", revoked_at: now })
      .where("id", "=", purchaseId)
      .execute();
    await takeSalesBack(trx, [row.template_id]);
  });
}
