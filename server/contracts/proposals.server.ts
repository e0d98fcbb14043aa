import crypto from "node:crypto";
import { fillTerms } from "#domain/contract-settings";
import { formatMoney } from "#domain/money";
import { addDays, todayIn } from "#domain/payment-plan";
import {
  contentFromForm,
  parseProposalForm,
  PROPOSAL_MESSAGES,
  sendingProblem,
  type ProposalContent,
} from "#domain/proposal";
import { formatCalendarDate } from "#domain/dates";
import { goalLabel } from "#domain/booking-rules";
import type { DB } from "../db/db.server";
import type { Writer } from "../payments/plan.server";
import { nextNumber } from "../db/counters.server";
import { listFromJson, nowIso, stringList, toJson } from "../db/json";
import { bookingAddonSchema } from "../db/json-columns";
import type { ProposalEventKind, ProposalStatus } from "../db/schema";
import { DomainError } from "../errors";
import type { Env } from "../env.server";
import { sendMail } from "../email/mailer.server";
import { newLinkToken } from "../payments/link-token.server";
import { getStudio } from "../studio/studio.server";
import { contentOf, referenceOf, type ProposalRow } from "./documents.server";
import { proposalSentMail, type ProposalMailFacts } from "./mails.server";
import { addEvent } from "./trail.server";

/**
 * The owner's side of a proposal (issue 44.1, 44.2, 44.6): drafted from a booking, edited while a
 * draft, sent by email, extended, revised as a new version. What the client does with it is
 * signing.server.ts; countersigning is countersign.server.ts.
 */

export async function proposalById(db: DB, id: string): Promise<ProposalRow> {
  const row = await db.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError("not-found", "Proposal not found");
  return row;
}

/** Whether a sent version can no longer be signed because its day passed (studio's calendar). */
export function isExpired(row: Pick<ProposalRow, "status" | "expires_on">, today: string): boolean {
  return row.status === "sent" && row.expires_on < today;
}

/** The features the client listed in the wizard (its description's must-have and nice-to-have paragraphs). */
function featuresOf(description: string): string {
  const parts = description.split(/\n\s*\n/).filter((p) => /^(Must-have|Nice-to-have) features:/.test(p));
  return (parts.length ? parts : [description]).join("\n\n").trim();
}

/** The content a new proposal starts from: the booking's package, add-ons, discount, plan and summary. */
async function draftContent(
  db: DB,
  bookingId: string,
  zone: string,
  now: Date,
): Promise<{ content: ProposalContent; expiresOn: string }> {
  const b = await db.selectFrom("bookings").selectAll().where("id", "=", bookingId).executeTakeFirst();
  if (!b) throw new DomainError("not-found", "Booking not found");
  if (b.status === "cancelled")
    throw new DomainError("conflict", "This booking is cancelled: make it active again to send a proposal.");
  const studio = await getStudio(db);
  const packageName = b.package_name ?? b.package_type;
  const items = [{ label: `${packageName} website`, amount: b.package_price }];
  for (const a of listFromJson(b.addons, bookingAddonSchema)) {
    const price = a.price ?? 0;
    if (price > 0)
      items.push({
        label: a.quantity > 1 ? `${a.name ?? a.id} \u00D7 ${a.quantity}` : (a.name ?? a.id),
        amount: price * a.quantity,
      });
  }
  const listed = items.reduce((sum, i) => sum + i.amount, 0);
  const discount =
    listed > b.total_amount
      ? {
          label: b.discount_percent ? `Promotion (${b.discount_percent}% off)` : "Discount",
          amount: listed - b.total_amount,
        }
      : null;
  const stages = await db
    .selectFrom("booking_stages")
    .select(["label", "amount", "position"])
    .where("booking_id", "=", bookingId)
    .orderBy("position")
    .execute();
  const described = studio.paymentTerms.stages;
  const planStages = stages.map((s, i) => ({
    label: s.label,
    amount: s.amount,
    due: i === 0 ? "On signing" : (described[i]?.description ?? ""),
  }));
  const today = todayIn(zone, now);
  const total = b.total_amount;
  const content: ProposalContent = {
    title: `${packageName} website for ${b.company_name}`,
    client: { name: b.full_name, company: b.company_name, email: b.email, address: b.billing_address },
    summary: {
      goal: stringList(b.project_goals).map(goalLabel).join(", "),
      audience: b.target_audience,
      features: featuresOf(b.project_description),
      startDate:
        b.desired_start_date && /^\d{4}-\d{2}-\d{2}$/.test(b.desired_start_date)
          ? formatCalendarDate(b.desired_start_date)
          : (b.desired_start_date ?? ""),
    },
    scope: `We will design and build the ${packageName} website for ${b.company_name} as listed below, from the project summary we discussed on our call.`,
    items,
    discount,
    stages: planStages,
    terms: fillTerms(studio.contract.terms, {
      client: b.full_name,
      company: b.company_name,
      package: packageName,
      total: formatMoney(total),
      studio: studio.contract.legalName || studio.identity.name,
      date: formatCalendarDate(today),
      stages: planStages.map((s) => `${s.label} ${formatMoney(s.amount)}`).join(", "),
    }),
  };
  return { content, expiresOn: addDays(today, studio.contract.expiryDays) };
}

/**
 * "Create proposal" on a booking: a draft from it, numbered P-NNNN. A booking with a draft already
 * gets that draft back (a second click makes nothing more).
 */
export async function createProposal(db: DB, e: Env, bookingId: string, by: string, now = new Date()): Promise<string> {
  const { content, expiresOn } = await draftContent(db, bookingId, e.STUDIO_TIMEZONE, now);
  const { contract } = await getStudio(db);
  return db.transaction().execute(async (trx) => {
    const draft = await trx
      .selectFrom("proposals")
      .select("id")
      .where("booking_id", "=", bookingId)
      .where("status", "=", "draft")
      .executeTakeFirst();
    if (draft) return draft.id;
    const id = crypto.randomUUID();
    await trx
      .insertInto("proposals")
      .values({
        id,
        booking_id: bookingId,
        number: await nextNumber(trx, "proposal"),
        version: 1,
        token: newLinkToken(),
        status: "draft",
        content: toJson(content),
        total: content.items.reduce((s, i) => s + i.amount, 0) - (content.discount?.amount ?? 0),
        expires_on: expiresOn,
        countersign: contract.countersign ? 1 : 0,
        created_by: by,
      })
      .execute();
    await addEvent(trx, id, "created", { email: by, at: now });
    return id;
  });
}

/** A proposal one of whose versions the client signed is an agreement: no other version goes out. */
export async function refuseIfSigned(trx: Writer, number: number) {
  const signed = await trx
    .selectFrom("proposals")
    .select("version")
    .where("number", "=", number)
    .where("status", "=", "signed")
    .executeTakeFirst();
  if (signed) throw new DomainError("conflict", PROPOSAL_MESSAGES.versionSigned(signed.version));
}

function refuseUnlessDraft(row: ProposalRow) {
  if (row.status !== "draft") throw new DomainError("conflict", PROPOSAL_MESSAGES.notDraft);
}

/**
 * Saves the owner's edits of a draft: the form's fields as typed, read by the form's own schema
 * (the same one the console checked them with).
 */
export async function updateProposal(db: DB, e: Env, id: string, typed: Record<string, string>, now = new Date()) {
  refuseUnlessDraft(await proposalById(db, id));
  const form = new FormData();
  for (const [k, v] of Object.entries(typed)) form.append(k, v);
  const submission = parseProposalForm(form);
  if (submission.status !== "success") {
    const errors = submission.reply().error ?? {};
    const first = Object.entries(errors).find(([, m]) => m?.length);
    throw new DomainError("invalid", first ? `${first[1]![0]}` : "Check the proposal's fields");
  }
  if (submission.value.expiresOn < todayIn(e.STUDIO_TIMEZONE, now))
    throw new DomainError("invalid", PROPOSAL_MESSAGES.expiresPast);
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new DomainError("not-found", "Proposal not found");
    refuseUnlessDraft(row);
    const { content, expiresOn } = contentFromForm(contentOf(row), submission.value);
    await trx
      .updateTable("proposals")
      .set({
        content: toJson(content),
        total: content.items.reduce((s, i) => s + i.amount, 0) - (content.discount?.amount ?? 0),
        expires_on: expiresOn,
        updated_at: nowIso(now),
      })
      .where("id", "=", id)
      .where("status", "=", "draft")
      .execute();
  });
}

export async function mailFacts(db: DB, e: Env, row: ProposalRow): Promise<ProposalMailFacts> {
  const c = contentOf(row);
  const { identity } = await getStudio(db, { studioEmail: e.STUDIO_EMAIL });
  return {
    studio: identity,
    studioTo: e.STUDIO_EMAIL,
    clientTo: c.client.email,
    clientName: c.client.name,
    company: c.client.company,
    title: c.title,
    reference: referenceOf(row),
    total: row.total,
    expiresOn: row.expires_on,
    link: `${e.APP_URL}/proposal/${row.token}`,
    adminLink: `${e.APP_URL}/admin?tab=bookings&booking=${row.booking_id}`,
  };
}

/**
 * Sends a draft: refused when its items and plan disagree or its expiry has passed; the version it
 * revises (if still open) is marked replaced, its link then naming the new one. Emails the client.
 */
export async function sendProposal(db: DB, e: Env, id: string, by: string, now = new Date()) {
  const today = todayIn(e.STUDIO_TIMEZONE, now);
  const sent = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new DomainError("not-found", "Proposal not found");
    if (row.status !== "draft") return null;
    await refuseIfSigned(trx, row.number);
    const content = contentOf(row);
    const problem = sendingProblem(content);
    if (problem) throw new DomainError("invalid", problem);
    if (row.expires_on < today) throw new DomainError("invalid", PROPOSAL_MESSAGES.expiresPast);
    await trx
      .updateTable("proposals")
      .set({ status: "sent", sent_at: nowIso(now), updated_at: nowIso(now) })
      .where("id", "=", id)
      .execute();
    await trx
      .updateTable("bookings")
      .set({ billing_address: content.client.address })
      .where("id", "=", row.booking_id)
      .execute();
    await addEvent(trx, id, "sent", { email: content.client.email, at: now, detail: `Sent by ${by}` });
    const older = await trx
      .selectFrom("proposals")
      .select("id")
      .where("number", "=", row.number)
      .where("version", "<", row.version)
      .where("status", "in", ["sent", "declined"])
      .execute();
    for (const o of older) {
      await trx
        .updateTable("proposals")
        .set({ status: "replaced", replaced_by: id, updated_at: nowIso(now) })
        .where("id", "=", o.id)
        .execute();
      await addEvent(trx, o.id, "replaced", { at: now, detail: `Replaced by version ${row.version}` });
    }
    return { ...row, status: "sent" as ProposalStatus };
  });
  if (!sent) throw new DomainError("conflict", PROPOSAL_MESSAGES.notDraft);
  const mail = await sendMail(db, e, proposalSentMail(await mailFacts(db, e, sent), sent.version > 1));
  return { mailStatus: mail.status, to: contentOf(sent).client.email };
}

/** Gives a sent (or expired) version a later expiry date. */
export async function extendProposal(db: DB, e: Env, id: string, expiresOn: string, by: string, now = new Date()) {
  const today = todayIn(e.STUDIO_TIMEZONE, now);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresOn) || expiresOn < today)
    throw new DomainError("invalid", PROPOSAL_MESSAGES.expiresPast);
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new DomainError("not-found", "Proposal not found");
    if (row.status !== "sent" && row.status !== "draft")
      throw new DomainError(
        "conflict",
        "Only a proposal that is not yet signed, declined or replaced can be extended.",
      );
    await trx
      .updateTable("proposals")
      .set({ expires_on: expiresOn, updated_at: nowIso(now) })
      .where("id", "=", id)
      .execute();
    if (row.status === "sent")
      await addEvent(trx, id, "extended", { at: now, email: by, detail: `Open until ${expiresOn}` });
  });
}

/**
 * "Send a revision": a new draft version of a sent or declined proposal, its content copied (the
 * open draft when there is one). A signed version never changes, and is not revised.
 */
export async function reviseProposal(db: DB, e: Env, id: string, by: string, now = new Date()): Promise<string> {
  const { contract } = await getStudio(db);
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new DomainError("not-found", "Proposal not found");
    if (row.status === "signed") throw new DomainError("conflict", PROPOSAL_MESSAGES.signedNeverChanges);
    await refuseIfSigned(trx, row.number);
    if (row.status === "draft") return row.id;
    const open = await trx
      .selectFrom("proposals")
      .select("id")
      .where("number", "=", row.number)
      .where("status", "=", "draft")
      .executeTakeFirst();
    if (open) return open.id;
    const latest = await trx
      .selectFrom("proposals")
      .select((eb) => eb.fn.max("version").as("v"))
      .where("number", "=", row.number)
      .executeTakeFirstOrThrow();
    const newId = crypto.randomUUID();
    await trx
      .insertInto("proposals")
      .values({
        id: newId,
        booking_id: row.booking_id,
        number: row.number,
        version: Number(latest.v) + 1,
        token: newLinkToken(),
        status: "draft",
        content: row.content,
        total: row.total,
        expires_on: addDays(todayIn(e.STUDIO_TIMEZONE, now), contract.expiryDays),
        countersign: row.countersign,
        created_by: by,
      })
      .execute();
    await addEvent(trx, newId, "created", { email: by, at: now, detail: `Revision of version ${row.version}` });
    return newId;
  });
}

export type { ProposalEventKind };
