import { todayIn, zonedMoment } from "#domain/payment-plan";
import type { DB } from "../db/db.server";
import type { LedgerKind, PaymentMethod } from "../db/schema";

/**
 * Money you can read (issue 31.6): what the ledger says was received in a month of the studio's
 * time zone (booking payments plus template sales minus refunds), its parts, the twelve months up
 * to it, and the pipeline: what open bookings still quote, which is never counted as revenue.
 */

export type MonthFigures = {
  /** YYYY-MM */
  month: string;
  /** "November 2026" */
  label: string;
  received: number;
  bookingPayments: number;
  templateSales: number;
  refunds: number;
};

export type MoneyView = MonthFigures & {
  /** The twelve months ending with `month`, oldest first: "Dec", received. */
  months: { month: string; short: string; received: number }[];
  /** What open bookings (neither completed nor cancelled) still quote beyond what they paid. */
  pipeline: number;
  pipelineBookings: number;
  /** The month before and after, for the chooser (no later than this month). */
  previous: string;
  next: string | null;
};

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export function isMonth(v: unknown): v is string {
  return typeof v === "string" && MONTH.test(v);
}

function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}

function monthLabel(month: string, style: "long" | "short"): string {
  return new Date(`${month}-01T12:00:00Z`).toLocaleDateString("en-US", {
    month: style,
    ...(style === "long" ? { year: "numeric" } : {}),
    timeZone: "UTC",
  });
}

type Figures = Omit<MonthFigures, "month" | "label">;

/** The one rule that turns ledger rows into figures: a refund comes off what was received. */
function count(f: Figures, r: { kind: LedgerKind; amount: number; purchase_id: string | null }): void {
  if (r.kind === "refund") {
    f.refunds += r.amount;
    f.received -= r.amount;
  } else {
    if (r.purchase_id) f.templateSales += r.amount;
    else f.bookingPayments += r.amount;
    f.received += r.amount;
  }
}

export type LedgerTotals = {
  /** Everything received, less refunds: Total Revenue. */
  received: number;
  /** Template sales less their refunds: Products. */
  products: number;
  /** Booking payments less their refunds: Bookings Revenue. */
  bookings: number;
};

/** All-time figures of the ledger (the console's cards), by the same rule as a month's. */
export async function ledgerTotals(db: DB): Promise<LedgerTotals> {
  const rows = await db
    .selectFrom("payments")
    .select((eb) => ["kind", eb.fn.sum<number>("amount").as("amount"), eb.fn.max("purchase_id").as("purchase_id")])
    .groupBy(["kind", (eb) => eb("purchase_id", "is not", null)])
    .execute();
  const f: Figures = { received: 0, bookingPayments: 0, templateSales: 0, refunds: 0 };
  let productRefunds = 0;
  for (const r of rows) {
    const row = { kind: r.kind, amount: Number(r.amount), purchase_id: r.purchase_id };
    count(f, row);
    if (r.kind === "refund" && r.purchase_id) productRefunds += row.amount;
  }
  return {
    received: f.received,
    products: f.templateSales - productRefunds,
    bookings: f.bookingPayments - (f.refunds - productRefunds),
  };
}

/** The ledger's money for `month` (default: this month in `zone`) and the eleven months before it. */
export async function moneyView(db: DB, zone: string, month?: string, now = new Date()): Promise<MoneyView> {
  const current = todayIn(zone, now).slice(0, 7);
  const chosen = isMonth(month) && month <= current ? month : current;
  const first = shiftMonth(chosen, -11);
  const from = zonedMoment(`${first}-01`, 0, zone).toISOString();
  const to = zonedMoment(`${shiftMonth(chosen, 1)}-01`, 0, zone).toISOString();
  const rows = await db
    .selectFrom("payments")
    .select(["kind", "amount", "booking_id", "purchase_id", "stage_id", "occurred_at"])
    .where("occurred_at", ">=", from)
    .where("occurred_at", "<", to)
    .execute();
  const byMonth = new Map<string, Figures>();
  for (let i = 0; i < 12; i++)
    byMonth.set(shiftMonth(first, i), { received: 0, bookingPayments: 0, templateSales: 0, refunds: 0 });
  for (const r of rows) {
    const m = byMonth.get(todayIn(zone, new Date(r.occurred_at)).slice(0, 7));
    if (m) count(m, r);
  }
  const open = await db
    .selectFrom("bookings")
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(eb("total_amount", "-", eb.ref("amount_paid"))), eb.lit(0)).as("left"),
      eb.fn.countAll<number>().as("count"),
    ])
    .where("status", "not in", ["completed", "cancelled"])
    .whereRef("total_amount", ">", "amount_paid")
    .executeTakeFirstOrThrow();
  return {
    month: chosen,
    label: monthLabel(chosen, "long"),
    ...byMonth.get(chosen)!,
    months: [...byMonth.entries()].map(([m, f]) => ({ month: m, short: monthLabel(m, "short"), received: f.received })),
    pipeline: Number(open.left),
    pipelineBookings: Number(open.count),
    previous: shiftMonth(chosen, -1),
    next: chosen < current ? shiftMonth(chosen, 1) : null,
  };
}

export type LedgerRow = {
  id: string;
  kind: LedgerKind;
  occurredAt: string;
  party: string;
  subject: string;
  amount: number;
  method: PaymentMethod;
  bookingId: string | null;
  purchaseId: string | null;
  stripePaymentIntent: string | null;
  stripeCheckoutSession: string | null;
  stripeRefund: string | null;
  note: string | null;
  /** The invoice of the stage it paid (or refunded), INV-YYYY-NNNN (issue 44.7). */
  invoiceNumber: string | null;
};

/** Every payment and refund, newest first, in batches (the CSV export streams it). */
export async function* eachLedgerRow(db: DB, batch = 500): AsyncGenerator<LedgerRow> {
  let offset = 0;
  for (;;) {
    const rows = await db
      .selectFrom("payments")
      .leftJoin("invoices", "invoices.stage_id", "payments.stage_id")
      .selectAll("payments")
      .select("invoices.number as invoice_number")
      .orderBy("payments.occurred_at", "desc")
      .orderBy("payments.id")
      .limit(batch)
      .offset(offset)
      .execute();
    for (const r of rows)
      yield {
        id: r.id,
        kind: r.kind,
        occurredAt: r.occurred_at,
        party: r.party,
        subject: r.subject,
        amount: r.amount,
        method: r.method,
        bookingId: r.booking_id,
        purchaseId: r.purchase_id,
        stripePaymentIntent: r.stripe_payment_intent,
        stripeCheckoutSession: r.stripe_checkout_session,
        stripeRefund: r.stripe_refund,
        note: r.note,
        invoiceNumber: r.invoice_number,
      };
    if (rows.length < batch) return;
    offset += batch;
  }
}

/** The newest ledger rows (the Overview's list). */
export async function recentLedger(db: DB, limit = 8): Promise<LedgerRow[]> {
  const out: LedgerRow[] = [];
  for await (const r of eachLedgerRow(db, limit)) {
    out.push(r);
    if (out.length >= limit) break;
  }
  return out;
}
