import { addBusinessDays, addDays, PLAN_MESSAGES, todayIn, zonedMoment } from "#domain/payment-plan";
import type { DB } from "../db/db.server";
import { nowIso } from "../db/json";
import { DomainError } from "../errors";
import type { Env } from "../env.server";
import { scheduleMail, sendMail } from "../email/mailer.server";
import { getStudio } from "../studio/studio.server";
import { log } from "../log.server";
import { paymentRequestMail, type StageMailFacts } from "./emails.server";
import { issueInvoice } from "./invoices.server";
import { isLinkToken, newLinkToken } from "./link-token.server";
import type { Mail } from "../email/mailer.server";
import { bookingTotal, stageFor } from "./plan.server";
import { stripeClient, stripeRefusal } from "./stripe.server";

/**
 * Asking the client for a stage (issue 31): its Stripe Checkout Session and our `/pay/<token>`
 * page, the request email and its reminders. What a paid session records is card.server.ts.
 */

/** What the console's request button says when card payments are off. */
export const CARD_PAYMENTS_NEED_STRIPE =
  "Card payments need Stripe (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET). For a bank transfer or cash, use Record payment.";

/** The hour (studio time) a payment reminder goes out on its day. */
const REMINDER_HOUR = 9;
/** A Checkout Session this close to its expiry is not handed out again: a fresh one is made. */
const SESSION_MARGIN_MS = 10 * 60 * 1000;

export type StageRow = Awaited<ReturnType<typeof stageFor>>;

export async function stageMailFacts(db: DB, e: Env, stage: StageRow, now: Date): Promise<StageMailFacts> {
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
    invoiceLink: `${e.APP_URL}/pay/${stage.pay_token}/invoice.pdf`,
  };
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
 * cancelled booking, and without Stripe. The first request issues the stage's invoice, numbered in
 * the same transaction (invoices.server.ts). `opts.mail` words the request another way (a signed
 * proposal's "Signed, here is your deposit").
 */
export async function requestStagePayment(
  db: DB,
  e: Env,
  bookingId: string,
  stageId: string,
  now = new Date(),
  opts: { mail?: (facts: StageMailFacts) => Mail } = {},
): Promise<{ requested: boolean; payPath: string; dueOn: string; mailStatus: string | null }> {
  const booking = await bookingTotal(db, bookingId);
  if (booking.status === "cancelled") throw new DomainError("conflict", PLAN_MESSAGES.cancelled);
  let stage = await stageFor(db, bookingId, stageId);
  if (stage.paid_at) throw new DomainError("conflict", PLAN_MESSAGES.alreadyPaid);
  if (!(await stripeClient(e))) throw new DomainError("unavailable", CARD_PAYMENTS_NEED_STRIPE);
  const token = stage.pay_token ?? newLinkToken();
  stage = await freshSession(db, e, stage, token, now);
  const { paymentTerms } = await getStudio(db, { studioEmail: e.STUDIO_EMAIL });
  const dueOn = stage.due_on ?? addBusinessDays(todayIn(e.STUDIO_TIMEZONE, now), paymentTerms.dueBusinessDays);
  const requested = await db.transaction().execute(async (trx) => {
    const first = await trx
      .updateTable("booking_stages")
      .set({ pay_token: token, requested_at: now.toISOString(), due_on: dueOn, updated_at: nowIso() })
      .where("id", "=", stage.id)
      .where("requested_at", "is", null)
      .where("paid_at", "is", null)
      .executeTakeFirst();
    if (Number(first.numUpdatedRows) === 0) return false;
    await issueInvoice(trx, stage.id, now);
    return true;
  });
  const current = await stageFor(db, bookingId, stageId);
  if (!requested)
    return { requested: false, payPath: `/pay/${current.pay_token}`, dueOn: current.due_on ?? dueOn, mailStatus: null };
  const facts = await stageMailFacts(db, e, current, now);
  const sent = await sendMail(db, e, (opts.mail ?? paymentRequestMail)(facts));
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
  /** The stage's invoice number, and whether its receipt exists (issue 44.7). */
  invoice: { number: string; paid: boolean } | null;
};

async function stageByToken(db: DB, token: string) {
  if (!isLinkToken(token)) return null;
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
  const invoice = await db
    .selectFrom("invoices")
    .select(["number", "paid_on"])
    .where("stage_id", "=", stage.id)
    .executeTakeFirst();
  return {
    invoice: invoice ? { number: invoice.number, paid: Boolean(invoice.paid_on) } : null,
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
