import { sql } from "kysely";
import type { DB } from "../db/db.server";
import { ledgerTotals } from "../payments/money.server";

/** The four summary cards, computed in SQL. */
export async function adminStats(db: DB) {
  const products = await db
    .selectFrom("purchases")
    .select(sql<number>`count(*)`.as("sales"))
    .where("status", "=", "active")
    .executeTakeFirstOrThrow();
  // Every money figure is the ledger's (issue 41.1): a refund comes off it, as in the month's money.
  const money = await ledgerTotals(db);
  const bookings = await db
    .selectFrom("bookings")
    .select([
      sql<number>`count(*)`.as("total"),
      sql<number>`coalesce(sum(case when status = 'pending' then 1 else 0 end), 0)`.as("pending"),
      // What open bookings still quote beyond what they paid: the pipeline, never revenue (issue 31).
      sql<number>`coalesce(sum(case when status not in ('completed','cancelled') and total_amount > amount_paid then total_amount - amount_paid else 0 end), 0)`.as(
        "pipeline",
      ),
    ])
    .executeTakeFirstOrThrow();
  // The top seller by real purchases, like Total Sales (the catalogue's sales_count is a shop
  // figure the demo seed pre-fills, not what this studio sold).
  const top = await db
    .selectFrom("purchases")
    .innerJoin("templates", "templates.id", "purchases.template_id")
    .select(["templates.name", sql<number>`count(*)`.as("sold")])
    .where("purchases.status", "=", "active")
    .groupBy("purchases.template_id")
    .orderBy("sold", "desc")
    .orderBy("templates.name")
    .limit(1)
    .executeTakeFirst();
  return {
    totalRevenue: money.received,
    productRevenue: money.products,
    bookingsPaid: money.bookings,
    totalSales: Number(products.sales),
    topTemplate: top ? { name: top.name, sales: Number(top.sold) } : null,
    totalBookings: Number(bookings.total),
    pendingBookings: Number(bookings.pending),
    pipeline: Number(bookings.pipeline),
  };
}
