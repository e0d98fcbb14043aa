import { sql, type Kysely } from "kysely";

/**
 * Refunds and disputes are terminal for the Stripe checkout they hit (decision 009).
 * `stripe_revocations` remembers every revoked checkout session (`cs_…`) and payment intent
 * (`pi_…`), so a revocation that arrives before the purchase exists, or a later replay of the
 * session, never grants access. `purchases.stripe_payment_intent` lets a refund find its purchase
 * without asking Stripe.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema
    .createTable("stripe_revocations")
    .addColumn("stripe_id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("stripe_event_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint("stripe_revocations_kind", sql`kind in ('checkout_session','payment_intent')`)
    .addCheckConstraint("stripe_revocations_reason", sql`reason in ('refunded','disputed')`)
    .execute();

  await db.schema.alterTable("purchases").addColumn("stripe_payment_intent", "text").execute();
  await db.schema.createIndex("purchases_stripe_payment_intent").on("purchases").column("stripe_payment_intent").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("purchases_stripe_payment_intent").ifExists().execute();
  await db.schema.alterTable("purchases").dropColumn("stripe_payment_intent").execute();
  await db.schema.dropTable("stripe_revocations").ifExists().execute();
}
