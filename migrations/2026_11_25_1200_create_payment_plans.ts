import { sql, type Kysely } from "kysely";
import crypto from "node:crypto";

/**
 * Get paid for the project (issue 31).
 *
 * - `booking_stages`: a booking's payment plan, one row per stage (Deposit, Design approval, Final
 *   delivery by default), its amount in cents; once requested, the `/pay/<token>` link, the due
 *   date and the last Stripe Checkout Session; once paid, when.
 * - `payments`: the ledger, every payment and refund of the studio: booking payments (by card
 *   through Stripe, or recorded by hand), template sales and refunds of either. Amounts are
 *   positive cents; `kind` says which way the money went. A Stripe checkout session pays once
 *   (unique index) and a Stripe refund is recorded once (unique `stripe_refund`).
 * - `email_outbox.stage_id`: a payment reminder's stage, so it is dropped when the stage is paid.
 *
 * Existing data: every booking with a total gets the default plan (20/50/30, the last stage taking
 * the rounding); its recorded payments become ledger rows (method "other") and pay the stages in
 * order. Every purchase becomes a card payment in the ledger, and a purchase refunded in full a
 * refund of the same amount.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const DEFAULT_STAGES = [
  { label: "Deposit", percent: 20 },
  { label: "Design approval", percent: 50 },
  { label: "Final delivery", percent: 30 },
];

export async function up(db: AnyDb): Promise<void> {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
  await db.schema
    .createTable("booking_stages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull().references("bookings.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("pay_token", "text", (c) => c.unique())
    .addColumn("requested_at", "text")
    .addColumn("due_on", "text")
    .addColumn("checkout_session_id", "text")
    .addColumn("checkout_url", "text")
    .addColumn("checkout_expires_at", "text")
    .addColumn("sessions_made", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("paid_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint("booking_stages_amount", sql`amount > 0`)
    .execute();
  await sql`create unique index booking_stages_position on booking_stages (booking_id, position)`.execute(db);

  await db.schema
    .createTable("payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("booking_id", "text", (c) => c.references("bookings.id").onDelete("set null"))
    .addColumn("stage_id", "text", (c) => c.references("booking_stages.id").onDelete("set null"))
    .addColumn("purchase_id", "text", (c) => c.references("purchases.id").onDelete("set null"))
    .addColumn("refund_of", "text", (c) => c.references("payments.id").onDelete("set null"))
    .addColumn("party", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("subject", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("stripe_payment_intent", "text")
    .addColumn("stripe_checkout_session", "text")
    .addColumn("stripe_refund", "text", (c) => c.unique())
    .addColumn("note", "text")
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint("payments_kind", sql`kind in ('payment','refund')`)
    .addCheckConstraint("payments_amount", sql`amount > 0`)
    .addCheckConstraint("payments_method", sql`method in ('card','bank','cash','other')`)
    .execute();
  await sql`create unique index payments_checkout_session on payments (stripe_checkout_session)
    where kind = 'payment' and stripe_checkout_session is not null`.execute(db);
  await sql`create index payments_occurred on payments (occurred_at)`.execute(db);
  await sql`create index payments_booking on payments (booking_id) where booking_id is not null`.execute(db);
  await sql`create index payments_purchase on payments (purchase_id) where purchase_id is not null`.execute(db);
  await sql`create index payments_intent on payments (stripe_payment_intent) where stripe_payment_intent is not null`.execute(
    db,
  );

  await db.schema.alterTable("email_outbox").addColumn("stage_id", "text").execute();
  await sql`create index email_outbox_stage on email_outbox (stage_id) where stage_id is not null`.execute(db);

  await backfill(db);
}

async function backfill(db: AnyDb) {
  const bookings = await db
    .selectFrom("bookings")
    .select(["id", "total_amount", "payment_history", "full_name", "email", "company_name", "created_at"])
    .execute();
  for (const b of bookings) {
    const stages: { id: string; amount: number; paidAt: string | null }[] = [];
    if (b.total_amount > 0) {
      let left = b.total_amount;
      DEFAULT_STAGES.forEach((s, i) => {
        const amount = i === DEFAULT_STAGES.length - 1 ? left : Math.round((b.total_amount * s.percent) / 100);
        left -= amount;
        if (amount > 0) stages.push({ id: crypto.randomUUID(), amount, paidAt: null });
      });
      for (const [i, s] of stages.entries()) {
        await db
          .insertInto("booking_stages")
          .values({ id: s.id, booking_id: b.id, position: i, label: DEFAULT_STAGES[i].label, amount: s.amount })
          .execute();
      }
    }
    let history: { amount?: unknown; date?: unknown; note?: unknown }[] = [];
    try {
      const parsed = JSON.parse(b.payment_history);
      if (Array.isArray(parsed)) history = parsed;
    } catch {
      history = [];
    }
    let paid = 0;
    for (const h of history) {
      if (typeof h.amount !== "number" || !Number.isInteger(h.amount) || h.amount <= 0) continue;
      const date = typeof h.date === "string" ? h.date : b.created_at;
      await db
        .insertInto("payments")
        .values({
          id: crypto.randomUUID(),
          kind: "payment",
          amount: h.amount,
          method: "other",
          booking_id: b.id,
          party: `${b.full_name} <${b.email}>`,
          subject: b.company_name,
          note: typeof h.note === "string" ? h.note : null,
          occurred_at: date,
        })
        .execute();
      paid += h.amount;
      let covered = 0;
      for (const s of stages) {
        covered += s.amount;
        if (!s.paidAt && paid >= covered) {
          s.paidAt = date;
          await db.updateTable("booking_stages").set({ paid_at: date }).where("id", "=", s.id).execute();
        }
      }
    }
  }

  const purchases = await db
    .selectFrom("purchases")
    .innerJoin("users", "users.id", "purchases.user_id")
    .innerJoin("templates", "templates.id", "purchases.template_id")
    .leftJoin("stripe_revocations", (j) =>
      j
        .onRef("stripe_revocations.stripe_id", "=", "purchases.stripe_payment_intent")
        .on("stripe_revocations.reason", "=", "refunded"),
    )
    .select([
      "purchases.id",
      "purchases.amount_paid",
      "purchases.stripe_session_id",
      "purchases.stripe_payment_intent",
      "purchases.status",
      "purchases.created_at",
      "users.email",
      "templates.name",
      "stripe_revocations.created_at as refunded_at",
    ])
    .execute();
  for (const p of purchases) {
    if (!(p.amount_paid > 0)) continue;
    const paymentId = crypto.randomUUID();
    await db
      .insertInto("payments")
      .values({
        id: paymentId,
        kind: "payment",
        amount: p.amount_paid,
        method: "card",
        purchase_id: p.id,
        party: p.email,
        subject: p.name,
        stripe_payment_intent: p.stripe_payment_intent,
        stripe_checkout_session: p.stripe_session_id,
        occurred_at: p.created_at,
      })
      .execute();
    if (p.status === "refunded") {
      await db
        .insertInto("payments")
        .values({
          id: crypto.randomUUID(),
          kind: "refund",
          amount: p.amount_paid,
          method: "card",
          purchase_id: p.id,
          refund_of: paymentId,
          party: p.email,
          subject: p.name,
          stripe_payment_intent: p.stripe_payment_intent,
          note: "Refunded or disputed before the ledger existed",
          occurred_at: p.refunded_at ?? p.created_at,
        })
        .execute();
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  await sql`drop index if exists email_outbox_stage`.execute(db);
  await db.schema.alterTable("email_outbox").dropColumn("stage_id").execute();
  await db.schema.dropTable("payments").ifExists().execute();
  await db.schema.dropTable("booking_stages").ifExists().execute();
}
