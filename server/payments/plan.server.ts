import crypto from "node:crypto";
import type { Transaction } from "kysely";
import {
  addBusinessDays,
  AMOUNT_MESSAGES,
  addDays,
  MAX_STAGES,
  parseAmount,
  parseStageLabel,
  planBalance,
  PLAN_MESSAGES,
  splitTotal,
  stageState,
  todayIn,
  zonedMoment,
  type StageSplit,
  type StageState,
} from "#domain/payment-plan";
import { formatMoney, MAX_AMOUNT_CENTS } from "#domain/money";
import { samplePaymentTerms } from "#domain/sample/payments";
import type { DB } from "../db/db.server";
import { listFromJson, nowIso, toJson } from "../db/json";
import { paymentEntrySchema } from "../db/json-columns";
import type { Database, PaymentMethod } from "../db/schema";
import { DomainError } from "../errors";
import type { Env } from "../env.server";
import { scheduleMail, sendMail } from "../email/mailer.server";
import { stripeClient, stripeRefusal } from "../shop/stripe.server";
import { getStudio } from "../studio/studio.server";
import {
  paymentNoticeMail,
  paymentReceiptMail,
  paymentRequestMail,
  type StageMailFacts,
} from "./payment-emails.server";
import { log } from "../log.server";

/**
 * Getting paid for a project (issue 31): each booking's payment plan (its stages), asking the client
 * for a stage through Stripe Checkout and a `/pay/<token>` page of ours, recording what was paid
 * (by card through the webhook, or by hand for a transfer or cash) in the ledger exactly once, and
 * the reminders of a requested stage. Amounts are cents.
 */

type Writer = DB | Transaction<Database>;

/** What the console's request button says when card payments are off. */
export const CARD_PAYMENTS_NEED_STRIPE =
  "Card payments need Stripe (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET). For a bank transfer or cash, use Record payment.";

/** The hour (studio time) a payment reminder goes out on its day. */
const REMINDER_HOUR = 9;
/** A Checkout Session this close to its expiry is not handed out again: a fresh one is made. */
const SESSION_MARGIN_MS = 10 * 60 * 1000;

export type StageView = {
  id: string;
  position: number;
  label: string;
  amount: number;
  state: StageState;
  requestedAt: string | null;
  dueOn: string | null;
  paidAt: string | null;
  /** The `/pay/<token>` path once requested. */
  payPath: string | null;
  /** Card payments on the stage (Stripe ids) and what was recorded by hand. */
  payments: {
    id: string;
    amount: number;
    method: PaymentMethod;
    occurredAt: string;
    paymentIntent: string | null;
    /** What of it was refunded (cents). */
    refunded: number;
  }[];
  editable: boolean;
};

export type PlanView = {
  bookingId: string;
  total: number;
  paid: number;
  left: number;
  cancelled: boolean;
  stages: StageView[];
  planned: number;
  mismatch: string | null;
};

// ---------- The plan ----------

/** Writes a booking's plan from the studio's split (in the booking's own transaction). */
export async function createPlan(
  trx: Writer,
  bookingId: string,
  total: number,
  split: readonly StageSplit[] = samplePaymentTerms.stages,
): Promise<void> {
  const stages = splitTotal(total, split);
  for (const [position, s] of stages.entries()) {
    await trx
      .insertInto("booking_stages")
      .values({ id: crypto.randomUUID(), booking_id: bookingId, position, label: s.label, amount: s.amount })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** A booking's plan as the console shows it; null when the booking does not exist. */
export async function paymentPlan(db: DB, bookingId: string, zone: string, now = new Date()): Promise<PlanView | null> {
  const booking = await db
    .selectFrom("bookings")
    .select(["id", "total_amount", "amount_paid", "status"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!booking) return null;
  const stages = await db
    .selectFrom("booking_stages")
    .selectAll()
    .where("booking_id", "=", bookingId)
    .orderBy("position")
    .execute();
  const payments = await db
    .selectFrom("payments")
    .select(["id", "stage_id", "amount", "method", "occurred_at", "stripe_payment_intent"])
    .where("booking_id", "=", bookingId)
    .where("kind", "=", "payment")
    .orderBy("occurred_at")
    .execute();
  const refunds = await db
    .selectFrom("payments")
    .select(["refund_of", (eb) => eb.fn.sum<number>("amount").as("sum")])
    .where("booking_id", "=", bookingId)
    .where("kind", "=", "refund")
    .groupBy("refund_of")
    .execute();
  const refundedOf = new Map(refunds.map((r) => [r.refund_of, Number(r.sum)]));
  const today = todayIn(zone, now);
  const views = stages.map((s): StageView => ({
    id: s.id,
    position: s.position,
    label: s.label,
    amount: s.amount,
    state: stageState({ paidAt: s.paid_at, requestedAt: s.requested_at, dueOn: s.due_on }, today),
    requestedAt: s.requested_at,
    dueOn: s.due_on,
    paidAt: s.paid_at,
    payPath: s.pay_token ? `/pay/${s.pay_token}` : null,
    payments: payments
      .filter((p) => p.stage_id === s.id)
      .map((p) => ({
        id: p.id,
        amount: p.amount,
        method: p.method,
        occurredAt: p.occurred_at,
        paymentIntent: p.stripe_payment_intent,
        refunded: refundedOf.get(p.id) ?? 0,
      })),
    editable: !s.paid_at && !s.requested_at,
  }));
  const balance = planBalance(
    booking.total_amount,
    views.map((v) => v.amount),
  );
  return {
    bookingId,
    total: booking.total_amount,
    paid: booking.amount_paid,
    left: Math.max(0, booking.total_amount - booking.amount_paid),
    cancelled: booking.status === "cancelled",
    stages: views,
    ...balance,
  };
}

async function stageFor(trx: Writer, bookingId: string, stageId: string) {
  const stage = await trx
    .selectFrom("booking_stages")
    .selectAll()
    .where("id", "=", stageId)
    .where("booking_id", "=", bookingId)
    .executeTakeFirst();
  if (!stage) throw new DomainError("not-found", "This stage no longer exists.");
  return stage;
}

function refuseUnlessEditable(stage: { paid_at: string | null; requested_at: string | null }) {
  if (stage.paid_at) throw new DomainError("conflict", PLAN_MESSAGES.paidLocked);
  if (stage.requested_at) throw new DomainError("conflict", PLAN_MESSAGES.requestedLocked);
}

function amountOrRefuse(input: string, opts: Parameters<typeof parseAmount>[1] = {}): number {
  const r = parseAmount(input, opts);
  if ("error" in r) throw new DomainError("invalid", r.error);
  return r.cents;
}

function labelOrRefuse(input: string): string {
  const r = parseStageLabel(input);
  if ("error" in r) throw new DomainError("invalid", r.error);
  return r.label;
}

async function bookingTotal(trx: Writer, bookingId: string) {
  const b = await trx
    .selectFrom("bookings")
    .select(["total_amount", "status"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!b) throw new DomainError("not-found", "Booking not found");
  return b;
}

/**
 * Changes a stage that was neither requested nor paid: its name, and its amount given in dollars
 * or as a percent of the booking's total (`amount` wins when both are given).
 */
export async function updateStage(
  db: DB,
  bookingId: string,
  stageId: string,
  input: { label?: string; amount?: string; percent?: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { total_amount } = await bookingTotal(trx, bookingId);
    const stage = await stageFor(trx, bookingId, stageId);
    refuseUnlessEditable(stage);
    const label = input.label === undefined ? stage.label : labelOrRefuse(input.label);
    let amount = stage.amount;
    if (input.amount !== undefined && input.amount.trim() !== "") amount = amountOrRefuse(input.amount);
    else if (input.percent !== undefined && input.percent.trim() !== "")
      amount = percentToAmount(input.percent, total_amount);
    await trx
      .updateTable("booking_stages")
      .set({ label, amount, updated_at: nowIso() })
      .where("id", "=", stageId)
      .execute();
  });
}

function percentToAmount(input: string, total: number): number {
  const typed = input.trim().replace(/%$/, "");
  const n = /^\d{1,3}(?:\.\d{1,4})?$/.test(typed) ? Number(typed) : NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 100) throw new DomainError("invalid", "Enter a percent from 0.1 to 100");
  const amount = Math.round((total * n) / 100);
  if (amount <= 0) throw new DomainError("invalid", "Enter an amount above $0");
  if (amount > MAX_AMOUNT_CENTS) throw new DomainError("invalid", AMOUNT_MESSAGES.tooLarge);
  return amount;
}

/** Adds a stage at the end of the plan (by default what the other stages leave of the total). */
export async function addStage(db: DB, bookingId: string, input: { label: string; amount?: string }): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const { total_amount } = await bookingTotal(trx, bookingId);
    const stages = await trx
      .selectFrom("booking_stages")
      .select(["position", "amount"])
      .where("booking_id", "=", bookingId)
      .execute();
    if (stages.length >= MAX_STAGES) throw new DomainError("conflict", PLAN_MESSAGES.tooManyStages);
    const label = labelOrRefuse(input.label);
    const rest = total_amount - stages.reduce((sum, s) => sum + s.amount, 0);
    const amount = input.amount?.trim()
      ? amountOrRefuse(input.amount)
      : rest > 0
        ? amountOrRefuse((rest / 100).toFixed(2))
        : amountOrRefuse("");
    const id = crypto.randomUUID();
    const position = stages.reduce((max, s) => Math.max(max, s.position + 1), 0);
    await trx.insertInto("booking_stages").values({ id, booking_id: bookingId, position, label, amount }).execute();
    return id;
  });
}

/** Removes a stage that was neither requested nor paid. */
export async function removeStage(db: DB, bookingId: string, stageId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    refuseUnlessEditable(await stageFor(trx, bookingId, stageId));
    await trx.deleteFrom("booking_stages").where("id", "=", stageId).execute();
  });
}

// ---------- Recording what was paid ----------

type LedgerPayment = {
  amount: number;
  method: PaymentMethod;
  note?: string | null;
  occurredAt: string;
  stripe?: { paymentIntent: string | null; checkoutSession: string };
};

/**
 * Writes a booking payment into the ledger and applies it: the stage it names (or the first
 * unpaid one) is paid once its payments reach its amount, the booking's amount paid, history and
 * payment status follow, and the stage's pending reminders are dropped. A Stripe checkout session
 * is recorded once: a second delivery answers `recorded: false` and changes nothing.
 */
async function applyPayment(
  trx: Transaction<Database>,
  bookingId: string,
  stageId: string | null,
  p: LedgerPayment,
): Promise<{ recorded: boolean; paymentId: string; stageId: string | null; stagePaid: boolean }> {
  const booking = await trx
    .selectFrom("bookings")
    .select(["id", "full_name", "email", "company_name"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!booking) throw new DomainError("not-found", "Booking not found");
  const stage = stageId
    ? await stageFor(trx, bookingId, stageId)
    : await trx
        .selectFrom("booking_stages")
        .selectAll()
        .where("booking_id", "=", bookingId)
        .where("paid_at", "is", null)
        .orderBy("position")
        .executeTakeFirst();
  const paymentId = crypto.randomUUID();
  const inserted = await trx
    .insertInto("payments")
    .values({
      id: paymentId,
      kind: "payment",
      amount: p.amount,
      method: p.method,
      booking_id: bookingId,
      stage_id: stage?.id ?? null,
      party: `${booking.full_name} <${booking.email}>`,
      subject: stage ? `${booking.company_name} · ${stage.label}` : booking.company_name,
      stripe_payment_intent: p.stripe?.paymentIntent ?? null,
      stripe_checkout_session: p.stripe?.checkoutSession ?? null,
      note: p.note || null,
      occurred_at: p.occurredAt,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
    return { recorded: false, paymentId, stageId: stage?.id ?? null, stagePaid: false };

  let stagePaid = false;
  if (stage && !stage.paid_at) {
    const paidOnStage = await trx
      .selectFrom("payments")
      .select((eb) => eb.fn.sum<number>("amount").as("sum"))
      .where("stage_id", "=", stage.id)
      .where("kind", "=", "payment")
      .executeTakeFirstOrThrow();
    if (Number(paidOnStage.sum ?? 0) >= stage.amount) {
      stagePaid = true;
      await trx
        .updateTable("booking_stages")
        .set({ paid_at: p.occurredAt, updated_at: nowIso() })
        .where("id", "=", stage.id)
        .execute();
      await dropStageReminders(trx, stage.id, "the stage was paid");
    }
  }
  await moveBookingPaid(trx, bookingId, { amount: p.amount, date: p.occurredAt, note: p.note });
  return { recorded: true, paymentId, stageId: stage?.id ?? null, stagePaid };
}

/**
 * What SPEC.md keeps on the booking follows the ledger: `amount_paid` moves by `amount` (a refund
 * is negative; never below 0), the entry is appended to `payment_history`, and `payment_status`
 * is worked out again. The one place both payments and refunds change a booking's money.
 */
export async function moveBookingPaid(
  trx: Writer,
  bookingId: string,
  entry: { amount: number; date: string; note?: string | null },
): Promise<void> {
  const b = await trx
    .selectFrom("bookings")
    .select(["amount_paid", "total_amount", "payment_history"])
    .where("id", "=", bookingId)
    .executeTakeFirst();
  if (!b) return;
  const history = listFromJson(b.payment_history, paymentEntrySchema);
  history.push({ amount: entry.amount, date: entry.date, ...(entry.note ? { note: entry.note } : {}) });
  const paid = Math.max(0, b.amount_paid + entry.amount);
  await trx
    .updateTable("bookings")
    .set({
      amount_paid: paid,
      payment_history: toJson(history),
      payment_status: paid <= 0 ? "unpaid" : paid >= b.total_amount ? "paid" : "partial",
      updated_at: nowIso(),
    })
    .where("id", "=", bookingId)
    .execute();
}

/** Drops the pending payment reminders of a stage (it was paid, or its booking cancelled). */
async function dropStageReminders(trx: Writer, stageId: string, reason: string): Promise<void> {
  await trx
    .updateTable("email_outbox")
    .set({ status: "cancelled", error: reason, next_attempt_at: null })
    .where("stage_id", "=", stageId)
    .where("status", "=", "pending")
    .execute();
}

/** Drops every pending payment reminder of a booking (it was cancelled). */
export async function dropBookingPaymentReminders(trx: Writer, bookingId: string): Promise<void> {
  await trx
    .updateTable("email_outbox")
    .set({ status: "cancelled", error: "the booking was cancelled", next_attempt_at: null })
    .where("booking_id", "=", bookingId)
    .where("stage_id", "is not", null)
    .where("status", "=", "pending")
    .execute();
}

/**
 * "Record payment": money that came by bank transfer, cash or other means, toward a stage (the
 * first unpaid one unless named). Refused when the amount is not above $0, finer than a cent, or
 * more than is left of the booking's total.
 */
export async function recordPayment(
  db: DB,
  bookingId: string,
  input: { amount: string | number; method?: PaymentMethod; note?: string; stageId?: string | null },
  now = new Date(),
) {
  return db.transaction().execute(async (trx) => {
    const b = await trx
      .selectFrom("bookings")
      .select(["total_amount", "amount_paid"])
      .where("id", "=", bookingId)
      .executeTakeFirst();
    if (!b) throw new DomainError("not-found", "Booking not found");
    const raw = typeof input.amount === "number" ? (input.amount / 100).toFixed(2) : input.amount;
    const amount = amountOrRefuse(raw, { left: b.total_amount - b.amount_paid });
    const r = await applyPayment(trx, bookingId, input.stageId ?? null, {
      amount,
      method: input.method ?? "other",
      note: input.note?.trim() || null,
      occurredAt: now.toISOString(),
    });
    const after = await trx
      .selectFrom("bookings")
      .select(["amount_paid", "payment_status", "payment_history"])
      .where("id", "=", bookingId)
      .executeTakeFirstOrThrow();
    return {
      ...r,
      amountPaid: after.amount_paid,
      paymentStatus: after.payment_status,
      paymentHistory: listFromJson(after.payment_history, paymentEntrySchema),
    };
  });
}

// ---------- Asking for a stage ----------

type StageRow = Awaited<ReturnType<typeof stageFor>>;

async function stageMailFacts(db: DB, e: Env, stage: StageRow, now: Date): Promise<StageMailFacts> {
  const b = await db
    .selectFrom("bookings")
    .select(["id", "full_name", "email", "company_name", "package_name", "package_type", "total_amount"])
    .where("id", "=", stage.booking_id)
    .executeTakeFirstOrThrow();
  const { identity } = await getStudio(db, { studioEmail: e.STUDIO_EMAIL });
  return {
    studio: identity,
    to: b.email,
    studioTo: e.STUDIO_EMAIL,
    adminLink: `${e.APP_URL}/admin?tab=bookings&booking=${b.id}`,
    clientName: b.full_name,
    company: b.company_name,
    project: `${b.package_name ?? b.package_type} website`,
    stageLabel: stage.label,
    amount: stage.amount,
    total: b.total_amount,
    dueOn: stage.due_on ?? todayIn(e.STUDIO_TIMEZONE, now),
    payLink: `${e.APP_URL}/pay/${stage.pay_token}`,
  };
}

function newPayToken(): string {
  return crypto.randomBytes(24).toString("base64url");
}

/**
 * A Stripe Checkout Session for exactly the stage's amount (the client's email prefilled, the
 * booking and stage in its metadata and its payment intent's), made with an idempotency key per
 * session, so two clicks at once make one session.
 */
async function createStageSession(e: Env, stage: StageRow, token: string, client: { email: string }, name: string) {
  const stripe = await stripeClient(e);
  if (!stripe) throw new DomainError("unavailable", CARD_PAYMENTS_NEED_STRIPE);
  const metadata = { booking_id: stage.booking_id, stage_id: stage.id };
  try {
    return await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: { currency: "usd", unit_amount: stage.amount, product_data: { name } },
          },
        ],
        customer_email: client.email,
        client_reference_id: stage.booking_id,
        metadata,
        payment_intent_data: { metadata },
        success_url: `${e.APP_URL}/pay/${token}?paid=1`,
        cancel_url: `${e.APP_URL}/pay/${token}`,
      },
      { idempotencyKey: `studio-stage-${stage.id}-session-${stage.sessions_made}` },
    );
  } catch (error) {
    const refusal = stripeRefusal(error);
    if (refusal) {
      log.warn(`[payments] Stripe refused the checkout session: ${refusal}`);
      throw new DomainError("refused", `Stripe refused to create the payment page. Stripe said: ${refusal}`);
    }
    log.error({ err: error }, "[payments] Stripe could not create the checkout session");
    throw new DomainError("failed", "Stripe could not create the payment page. Please try again.");
  }
}

/**
 * The stage's last Checkout Session when Stripe says it is still open for a while: handed out
 * again rather than making another. Expired, completed or unknown: null (a fresh one is made).
 */
async function usableSession(e: Env, stage: StageRow, now: Date): Promise<string | null> {
  if (!stage.checkout_session_id || !stage.checkout_url) return null;
  const stripe = await stripeClient(e);
  if (!stripe) throw new DomainError("unavailable", CARD_PAYMENTS_NEED_STRIPE);
  try {
    const s = await stripe.checkout.sessions.retrieve(stage.checkout_session_id);
    const open = s.status === "open" && s.expires_at * 1000 - SESSION_MARGIN_MS > now.getTime();
    return open ? (s.url ?? stage.checkout_url) : null;
  } catch (error) {
    log.warn(
      { err: error },
      `[payments] could not read checkout session ${stage.checkout_session_id}; making a new one`,
    );
    return null;
  }
}

async function freshSession(db: DB, e: Env, stage: StageRow, token: string, now: Date): Promise<StageRow> {
  const open = await usableSession(e, stage, now);
  if (open) return { ...stage, checkout_url: open };
  const b = await db
    .selectFrom("bookings")
    .select(["email", "company_name", "package_name", "package_type"])
    .where("id", "=", stage.booking_id)
    .executeTakeFirstOrThrow();
  const session = await createStageSession(
    e,
    stage,
    token,
    b,
    `${stage.label}: ${b.package_name ?? b.package_type} website for ${b.company_name}`,
  );
  if (!session.url) throw new DomainError("failed", "Stripe returned no payment page. Please try again.");
  const expires = session.expires_at ? new Date(session.expires_at * 1000) : new Date(now.getTime() + 23 * 3600_000);
  await db
    .updateTable("booking_stages")
    .set({
      checkout_session_id: session.id,
      checkout_url: session.url,
      checkout_expires_at: expires.toISOString(),
      sessions_made: stage.sessions_made + 1,
      updated_at: nowIso(),
    })
    .where("id", "=", stage.id)
    .where("sessions_made", "=", stage.sessions_made)
    .execute();
  return {
    ...stage,
    checkout_session_id: session.id,
    checkout_url: session.url,
    sessions_made: stage.sessions_made + 1,
  };
}

/**
 * "Request payment": makes the stage's Checkout Session and its `/pay/<token>` link, sets its due
 * date (the studio's business days from today, in the studio's zone), emails the client once and
 * schedules the reminders (on the due date and two days after, 09:00 studio time). A second
 * request of the same stage (a double click) sends nothing more. Refused for a paid stage, a
 * cancelled booking, and without Stripe.
 */
export async function requestStagePayment(
  db: DB,
  e: Env,
  bookingId: string,
  stageId: string,
  now = new Date(),
): Promise<{ requested: boolean; payPath: string; dueOn: string; mailStatus: string | null }> {
  const booking = await bookingTotal(db, bookingId);
  if (booking.status === "cancelled") throw new DomainError("conflict", PLAN_MESSAGES.cancelled);
  let stage = await stageFor(db, bookingId, stageId);
  if (stage.paid_at) throw new DomainError("conflict", PLAN_MESSAGES.alreadyPaid);
  if (!(await stripeClient(e))) throw new DomainError("unavailable", CARD_PAYMENTS_NEED_STRIPE);
  const token = stage.pay_token ?? newPayToken();
  stage = await freshSession(db, e, stage, token, now);
  const { paymentTerms } = await getStudio(db, { studioEmail: e.STUDIO_EMAIL });
  const dueOn = stage.due_on ?? addBusinessDays(todayIn(e.STUDIO_TIMEZONE, now), paymentTerms.dueBusinessDays);
  const first = await db
    .updateTable("booking_stages")
    .set({ pay_token: token, requested_at: now.toISOString(), due_on: dueOn, updated_at: nowIso() })
    .where("id", "=", stage.id)
    .where("requested_at", "is", null)
    .where("paid_at", "is", null)
    .executeTakeFirst();
  const current = await stageFor(db, bookingId, stageId);
  if (Number(first.numUpdatedRows) === 0)
    return { requested: false, payPath: `/pay/${current.pay_token}`, dueOn: current.due_on ?? dueOn, mailStatus: null };
  const facts = await stageMailFacts(db, e, current, now);
  const sent = await sendMail(db, e, paymentRequestMail(facts));
  for (const [i, day] of [current.due_on ?? dueOn, addDays(current.due_on ?? dueOn, 2)].entries()) {
    await scheduleMail(
      db,
      paymentRequestMail({ ...facts, reminder: i === 0 ? "due" : "overdue" }),
      { bookingId, stageId, sendAfter: zonedMoment(day, REMINDER_HOUR, e.STUDIO_TIMEZONE) },
      now,
    );
  }
  return { requested: true, payPath: `/pay/${token}`, dueOn: current.due_on ?? dueOn, mailStatus: sent.status };
}

/** "Send reminder": emails the client about a requested, unpaid stage now. */
export async function sendStageReminder(db: DB, e: Env, bookingId: string, stageId: string, now = new Date()) {
  const booking = await bookingTotal(db, bookingId);
  if (booking.status === "cancelled") throw new DomainError("conflict", PLAN_MESSAGES.cancelled);
  const stage = await stageFor(db, bookingId, stageId);
  if (stage.paid_at) throw new DomainError("conflict", PLAN_MESSAGES.alreadyPaid);
  if (!stage.requested_at || !stage.pay_token)
    throw new DomainError("conflict", "Request this payment first: the reminder links to its payment page.");
  const facts = await stageMailFacts(db, e, stage, now);
  const overdue = stage.due_on !== null && stage.due_on < todayIn(e.STUDIO_TIMEZONE, now);
  const sent = await sendMail(db, e, paymentRequestMail({ ...facts, reminder: overdue ? "overdue" : "due" }));
  return { to: facts.to, status: sent.status };
}

// ---------- The client's page: /pay/<token> ----------

export type PayPage = {
  studioName: string;
  clientName: string;
  company: string;
  project: string;
  stageLabel: string;
  amount: number;
  dueOn: string | null;
  paidAt: string | null;
  cancelled: boolean;
};

async function stageByToken(db: DB, token: string) {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  return db.selectFrom("booking_stages").selectAll().where("pay_token", "=", token).executeTakeFirst();
}

/** What `/pay/<token>` shows; null for a token that names no stage (a 404 page). */
export async function payPage(db: DB, e: Pick<Env, "STUDIO_EMAIL">, token: string): Promise<PayPage | null> {
  const stage = await stageByToken(db, token);
  if (!stage) return null;
  const b = await db
    .selectFrom("bookings")
    .select(["full_name", "company_name", "package_name", "package_type", "status"])
    .where("id", "=", stage.booking_id)
    .executeTakeFirst();
  if (!b) return null;
  const { identity } = await getStudio(db, { studioEmail: e.STUDIO_EMAIL });
  return {
    studioName: identity.name,
    clientName: b.full_name,
    company: b.company_name,
    project: `${b.package_name ?? b.package_type} website`,
    stageLabel: stage.label,
    amount: stage.amount,
    dueOn: stage.due_on,
    paidAt: stage.paid_at,
    cancelled: b.status === "cancelled",
  };
}

/**
 * The "Pay" button of `/pay/<token>`: the stage's Checkout Session URL, a fresh session when the
 * last one has expired. Null for an unknown token; refused for a paid stage or a cancelled booking.
 */
export async function checkoutForToken(db: DB, e: Env, token: string, now = new Date()): Promise<string | null> {
  const stage = await stageByToken(db, token);
  if (!stage) return null;
  const booking = await bookingTotal(db, stage.booking_id);
  if (booking.status === "cancelled") throw new DomainError("conflict", PLAN_MESSAGES.cancelled);
  if (stage.paid_at) throw new DomainError("conflict", PLAN_MESSAGES.alreadyPaid);
  const fresh = await freshSession(db, e, stage, token, now);
  return fresh.checkout_url;
}

// ---------- Stripe: a stage paid by card ----------

type StageSession = {
  id: string;
  payment_status: string;
  amount_total: number | null;
  currency?: string | null;
  metadata: Record<string, string> | null;
  payment_intent: string | { id: string } | null;
};

export type StagePaymentOutcome = "recorded" | "duplicate" | "unpaid" | "unknown";

/**
 * A completed Checkout Session whose metadata names a booking and a stage: the payment is written
 * once (whatever the order or number of deliveries), the stage marked paid, the client emailed a
 * receipt and the studio a notice. An unpaid session (a bank debit still on its way) waits for
 * `checkout.session.async_payment_succeeded`; metadata naming no stage of ours records nothing.
 */
export async function recordStageCheckout(
  db: DB,
  e: Env,
  session: StageSession,
  now = new Date(),
): Promise<StagePaymentOutcome> {
  if (session.payment_status !== "paid") return "unpaid";
  const bookingId = session.metadata?.booking_id;
  const stageId = session.metadata?.stage_id;
  const stage =
    bookingId && stageId
      ? await db
          .selectFrom("booking_stages")
          .selectAll()
          .where("id", "=", stageId)
          .where("booking_id", "=", bookingId)
          .executeTakeFirst()
      : undefined;
  if (!stage) {
    log.warn(
      `[payments] checkout session ${session.id} names booking ${bookingId ?? "(none)"} stage ${stageId ?? "(none)"}, which is not ours: nothing recorded`,
    );
    return "unknown";
  }
  // Ours only when it asks what the stage asks (a requested stage's amount is locked), in dollars,
  // and the stage was requested: a session someone else made with the same metadata pays for nothing.
  if (!stage.requested_at || session.amount_total !== stage.amount || (session.currency ?? "usd") !== "usd") {
    log.warn(
      `[payments] checkout session ${session.id} for stage ${stage.id} paid ${session.amount_total ?? "nothing"} ${session.currency ?? ""}, not the stage's ${stage.amount} usd${stage.requested_at ? "" : " (the stage was never requested)"}: nothing recorded`,
    );
    return "unknown";
  }
  const paymentIntent =
    typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  const r = await db.transaction().execute((trx) =>
    applyPayment(trx, stage.booking_id, stage.id, {
      amount: session.amount_total ?? stage.amount,
      method: "card",
      occurredAt: now.toISOString(),
      stripe: { paymentIntent, checkoutSession: session.id },
    }),
  );
  if (!r.recorded) return "duplicate";
  const paid = await stageFor(db, stage.booking_id, stage.id);
  const facts = await stageMailFacts(db, e, paid, now);
  const amount = session.amount_total ?? stage.amount;
  await sendMail(db, e, paymentReceiptMail({ ...facts, amount, paidAt: now.toISOString() }));
  await sendMail(db, e, paymentNoticeMail({ ...facts, amount, paidAt: now.toISOString(), paymentIntent }));
  return "recorded";
}

/** Money left to ask for on a booking, in words (the console's summary line). */
export function leftInWords(plan: PlanView): string {
  return plan.left > 0 ? `${formatMoney(plan.left)} left to pay` : "Paid in full";
}
