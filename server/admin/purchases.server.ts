import { sql } from "kysely";
import type { DB } from "../db/db.server";
import type { SqlBool } from "kysely";
import { ADMIN_PAGE_SIZE, containing, paging, type AdminListInput } from "./lists";

/** The purchases a console view shows: a search of buyer email, template name and license key. */
function matchingPurchases(db: DB, filter: { q?: string }) {
  let query = db
    .selectFrom("purchases as p")
    .innerJoin("templates as t", "t.id", "p.template_id")
    .innerJoin("users as u", "u.id", "p.user_id");
  const q = filter.q?.trim();
  if (q) {
    const like = containing(q);
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`u.email like ${like} escape '\\'`,
        sql<SqlBool>`t.name like ${like} escape '\\'`,
        sql<SqlBool>`p.license_key like ${like} escape '\\'`,
      ]),
    );
  }
  return query;
}

function purchaseRows(db: DB, filter: { q?: string }, limit: number, offset: number) {
  return matchingPurchases(db, filter)
    .select([
      "p.id",
      "p.amount_paid as amountPaid",
      "p.license_key as licenseKey",
      "p.created_at as createdAt",
      "p.status",
      "p.revoked_at as revokedAt",
      "t.name as templateName",
      "t.slug as templateSlug",
      "u.email",
      "u.full_name as fullName",
      // The sale's card payment in the ledger (issue 31), and what of it was refunded: the console's Refund.
      (eb) =>
        eb
          .selectFrom("payments as pay")
          .select("pay.id")
          .whereRef("pay.purchase_id", "=", "p.id")
          .where("pay.kind", "=", "payment")
          .where("pay.method", "=", "card")
          // The newest (a purchase revoked and bought again has two); rowid order is the index's own.
          .orderBy(sql`pay.rowid`, "desc")
          .limit(1)
          .as("paymentId"),
      (eb) =>
        eb
          .selectFrom("payments as ref")
          .select((r) => r.fn.coalesce(r.fn.sum<number>("ref.amount"), r.lit(0)).as("sum"))
          .whereRef("ref.purchase_id", "=", "p.id")
          .where("ref.kind", "=", "refund")
          .as("refunded"),
    ])
    .orderBy("p.created_at", "desc")
    .orderBy(sql`p.rowid`, "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Purchases newest first, 25 a page, optionally a search of buyer email, template name and license key. */
export async function adminPurchases(db: DB, input: AdminListInput = {}) {
  const { n } = await matchingPurchases(db, input)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const { page, pages, offset } = paging(total, input.page);
  return {
    rows: await purchaseRows(db, input, ADMIN_PAGE_SIZE, offset),
    total,
    page,
    pages,
    pageSize: ADMIN_PAGE_SIZE,
  };
}

/** Every purchase of a view, newest first, read in batches (the CSV export streams them). */
export async function* eachPurchase(db: DB, filter: { q?: string }, batch = 500) {
  for (let offset = 0; ; offset += batch) {
    const rows = await purchaseRows(db, filter, batch, offset);
    yield* rows;
    if (rows.length < batch) return;
  }
}
