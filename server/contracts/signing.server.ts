import crypto from "node:crypto";
import { CONSENT_TEXT, PROPOSAL_MESSAGES, signerName, type ProposalContent } from "#domain/proposal";
import { formatCalendarDate } from "#domain/dates";
import { todayIn } from "#domain/payment-plan";
import type { DB } from "../db/db.server";
import { nowIso } from "../db/json";
import { DomainError } from "../errors";
import type { Env } from "../env.server";
import { sendMail } from "../email/mailer.server";
import { log } from "../log.server";
import { isLinkToken } from "../payments/link-token.server";
import { requestStagePayment } from "../payments/requests.server";
import { stripeClient } from "../payments/stripe.server";
import {
  docStudio,
  contentOf,
  proposalDoc,
  referenceOf,
  removeDocument,
  sealedDocument,
  type ProposalRow,
} from "./documents.server";
import { pdfAttachment, signedClientMail, studioNoticeMail } from "./mails.server";
import { isExpired, mailFacts } from "./proposals.server";
import { addEvent, eventsOf, type EventFacts } from "./trail.server";
import type { Writer } from "../payments/plan.server";

/**
 * The client's side of a proposal (issue 44.2-44.6): `/proposal/<token>` shows it and records each
 * view; "Accept and sign" freezes it as a sealed PDF, records the signature once, makes the plan
 * the booking's and asks for the first stage at once; "Decline" tells the studio.
 */

type Who = { ip: string | null; userAgent: string | null };

/** A view from the same browser within this long is one view in the trail. */
const VIEW_WINDOW_MS = 30 * 60_000;

export function signedFileName(row: Pick<ProposalRow, "number" | "version">) {
  return `${referenceOf(row).replace(/\s+/g, "-")}-signed.pdf`;
}

async function rowByToken(db: DB, token: string): Promise<ProposalRow | null> {
  if (!isLinkToken(token)) return null;
  const row = await db.selectFrom("proposals").selectAll().where("token", "=", token).executeTakeFirst();
  // A draft is not the client's to see until it is sent.
  return row && row.status !== "draft" ? row : null;
}

/** Records "expired" once, the first time a late visit or signature finds the day passed. */
async function noteExpiry(trx: Writer, row: ProposalRow, who: Who, now: Date) {
  const had = await trx
    .selectFrom("proposal_events")
    .select("id")
    .where("proposal_id", "=", row.id)
    .where("kind", "=", "expired")
    .executeTakeFirst();
  if (!had) await addEvent(trx, row.id, "expired", { at: now, ...who, detail: `Open until ${row.expires_on}` });
}

export type ProposalPage = {
  studioName: string;
  contactEmail: string;
  reference: string;
  state: "open" | "signed" | "declined" | "expired" | "replaced";
  content: ProposalContent;
  total: number;
  expiresOn: string;
  signedAt: string | null;
  signerName: string | null;
  countersignedAt: string | null;
  countersignerName: string | null;
  declinedAt: string | null;
  latestPath: string | null;
  deposit: {
    label: string;
    amount: number;
    state: "paid" | "requested" | "not requested";
    payPath: string | null;
  } | null;
  consentText: string;
  hasPdf: boolean;
};

/** What `/proposal/<token>` shows (null: 404), the visit recorded in the trail. */
export async function proposalPage(
  db: DB,
  e: Env,
  token: string,
  who: Who,
  now = new Date(),
): Promise<ProposalPage | null> {
  const row = await rowByToken(db, token);
  if (!row) return null;
  const today = todayIn(e.STUDIO_TIMEZONE, now);
  await db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom("proposal_events")
      .select(["at", "ip", "user_agent"])
      .where("proposal_id", "=", row.id)
      .where("kind", "=", "viewed")
      .orderBy("id", "desc")
      .executeTakeFirst();
    const same =
      last &&
      last.ip === who.ip &&
      last.user_agent === who.userAgent &&
      now.getTime() - Date.parse(last.at) < VIEW_WINDOW_MS;
    if (!same) await addEvent(trx, row.id, "viewed", { at: now, ...who, email: contentOf(row).client.email });
    if (!row.viewed_at)
      await trx
        .updateTable("proposals")
        .set({ viewed_at: nowIso(now) })
        .where("id", "=", row.id)
        .execute();
    if (isExpired(row, today)) await noteExpiry(trx, row, who, now);
  });
  const latest =
    row.status === "replaced" && row.replaced_by
      ? await db.selectFrom("proposals").select("token").where("id", "=", row.replaced_by).executeTakeFirst()
      : null;
  const first = await db
    .selectFrom("booking_stages")
    .select(["label", "amount", "paid_at", "requested_at", "pay_token"])
    .where("booking_id", "=", row.booking_id)
    .orderBy("position")
    .executeTakeFirst();
  const studio = await docStudio(db);
  return {
    studioName: studio.name,
    contactEmail: studio.email,
    reference: referenceOf(row),
    state: isExpired(row, today) ? "expired" : row.status === "sent" ? "open" : (row.status as ProposalPage["state"]),
    content: contentOf(row),
    total: row.total,
    expiresOn: row.expires_on,
    signedAt: row.signed_at,
    signerName: row.signer_name,
    countersignedAt: row.countersigned_at,
    countersignerName: row.countersigner_name,
    declinedAt: row.declined_at,
    latestPath: latest ? `/proposal/${latest.token}` : null,
    deposit:
      row.status === "signed" && first
        ? {
            label: first.label,
            amount: first.amount,
            state: first.paid_at ? "paid" : first.requested_at ? "requested" : "not requested",
            payPath: first.pay_token && !first.paid_at ? `/pay/${first.pay_token}` : null,
          }
        : null,
    consentText: CONSENT_TEXT,
    hasPdf: Boolean(row.pdf_path),
  };
}

/** Why a version cannot be signed or declined now, or null. */
function closedProblem(row: ProposalRow, today: string): { message: string; status: number } | null {
  if (row.status === "signed") return { message: PROPOSAL_MESSAGES.alreadySigned, status: 409 };
  if (row.status === "declined") return { message: PROPOSAL_MESSAGES.declined, status: 409 };
  if (row.status === "replaced") return { message: PROPOSAL_MESSAGES.replaced, status: 409 };
  if (isExpired(row, today))
    return { message: PROPOSAL_MESSAGES.expired(formatCalendarDate(row.expires_on)), status: 409 };
  if (row.status !== "sent") return { message: PROPOSAL_MESSAGES.notSignable, status: 409 };
  return null;
}

export class ProposalClosed extends DomainError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super("conflict", message);
  }
}

export type SignOutcome = { signed: true; depositPath: string | null } | { signed: false; already: true };

/**
 * "Accept and sign": the typed name (two characters at least) and the consent box. The document is
 * rendered, hashed, certified and sealed first; then one transaction records the signature only if
 * the version is still open (of two posts at once, one signs; the other finds it signed), makes
 * the proposal's plan the booking's (while none of its stages was asked for) and keeps the trail.
 * Then the first stage is requested ("Signed, here is your deposit") when card payments are on.
 */
export async function signProposal(
  db: DB,
  e: Env,
  token: string,
  input: { name: unknown; consent: unknown },
  who: Who,
  now = new Date(),
): Promise<SignOutcome> {
  const row = await rowByToken(db, token);
  if (!row) throw new DomainError("not-found", "Proposal not found");
  const today = todayIn(e.STUDIO_TIMEZONE, now);
  const closed = closedProblem(row, today);
  if (row.status === "signed") return { signed: false, already: true };
  if (closed) {
    if (isExpired(row, today)) await db.transaction().execute((trx) => noteExpiry(trx, row, who, now));
    throw new ProposalClosed(closed.message, closed.status);
  }
  const typed = signerName(input.name);
  if ("error" in typed) throw new DomainError("invalid", typed.error);
  if (input.consent !== "on" && input.consent !== "true") throw new DomainError("invalid", PROPOSAL_MESSAGES.consent);

  const content = contentOf(row);
  const signedAt = now.toISOString();
  const facts: EventFacts = { at: now, ...who, email: content.client.email };
  const detail = (sha: string) => `Signed as "${typed.name}". Consent: "${CONSENT_TEXT}". Document SHA-256: ${sha}`;
  const studio = await docStudio(db);
  const doc = proposalDoc(row, studio, e.STUDIO_TIMEZONE, { name: typed.name, signedAt, consent: CONSENT_TEXT }, null);
  const sealed = await sealedDocument(db, e.DATA_DIR, row, doc, await eventsOf(db, row.id), (sha) => ({
    kind: "signed",
    at: signedAt,
    ip: who.ip,
    userAgent: who.userAgent,
    email: content.client.email,
    detail: detail(sha),
  }));
  const won = await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("proposals")
      .set({
        status: "signed",
        signed_at: signedAt,
        signer_name: typed.name,
        document_sha256: sealed.sha256,
        pdf_path: sealed.path,
        updated_at: signedAt,
      })
      .where("id", "=", row.id)
      .where("status", "=", "sent")
      .where("expires_on", ">=", today)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await addEvent(trx, row.id, "signed", { ...facts, detail: detail(sealed.sha256) });
    await adoptPlan(trx, row, content, signedAt);
    return true;
  });
  if (!won) {
    removeDocument(e.DATA_DIR, sealed.path);
    const now2 = await db.selectFrom("proposals").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    if (now2.status === "signed") return { signed: false, already: true };
    const problem = closedProblem(now2, today);
    throw new ProposalClosed(problem?.message ?? PROPOSAL_MESSAGES.notSignable, problem?.status ?? 409);
  }
  const signed = {
    ...row,
    status: "signed" as const,
    signed_at: signedAt,
    signer_name: typed.name,
    pdf_path: sealed.path,
  };
  const depositPath = await afterSigning(db, e, signed, sealed.pdf, typed.name, now);
  return { signed: true, depositPath };
}

/**
 * The proposal's plan becomes the booking's (its stages and total), unless a stage of the booking
 * was already asked for or paid: then the plan the client is paying stays, and the owner is told
 * in the log.
 */
async function adoptPlan(trx: Writer, row: ProposalRow, content: ProposalContent, at: string) {
  const stages = await trx
    .selectFrom("booking_stages")
    .select(["id", "requested_at", "paid_at"])
    .where("booking_id", "=", row.booking_id)
    .execute();
  if (stages.some((s) => s.requested_at || s.paid_at)) {
    log.warn(
      `[contracts] ${referenceOf(row)} was signed while its booking's plan was already being paid: the booking keeps its plan`,
    );
    return;
  }
  await trx.deleteFrom("booking_stages").where("booking_id", "=", row.booking_id).execute();
  for (const [position, s] of content.stages.entries())
    await trx
      .insertInto("booking_stages")
      .values({ id: crypto.randomUUID(), booking_id: row.booking_id, position, label: s.label, amount: s.amount })
      .execute();
  await trx
    .updateTable("bookings")
    .set({ total_amount: row.total, updated_at: at })
    .where("id", "=", row.booking_id)
    .execute();
}

/** The copies and the deposit: the client's mail carries the PDF and (card payments on) the deposit's link. */
async function afterSigning(
  db: DB,
  e: Env,
  row: ProposalRow,
  pdf: Buffer,
  name: string,
  now: Date,
): Promise<string | null> {
  const facts = await mailFacts(db, e, row);
  const attachment = pdfAttachment(signedFileName(row), pdf);
  const signedOn = todayIn(e.STUDIO_TIMEZONE, now);
  await sendMail(
    db,
    e,
    studioNoticeMail(facts, { kind: "signed", name, pdf: attachment, countersign: row.countersign === 1 }),
  );
  const first = await db
    .selectFrom("booking_stages")
    .select(["id", "paid_at", "requested_at", "pay_token"])
    .where("booking_id", "=", row.booking_id)
    .orderBy("position")
    .executeTakeFirst();
  if (first && !first.paid_at && !first.requested_at && (await stripeClient(e))) {
    try {
      const r = await requestStagePayment(db, e, row.booking_id, first.id, now, {
        mail: (stage) => signedClientMail(facts, attachment, stage, signedOn),
      });
      return r.payPath;
    } catch (error) {
      log.error(
        { err: error },
        `[contracts] the deposit of ${referenceOf(row)} could not be requested; the client is told the studio will send it`,
      );
    }
  }
  await sendMail(db, e, signedClientMail(facts, attachment, null, signedOn));
  return first?.pay_token && !first.paid_at ? `/pay/${first.pay_token}` : null;
}

/** "Decline", with the client's reason (optional): the studio is told. */
export async function declineProposal(db: DB, e: Env, token: string, reason: unknown, who: Who, now = new Date()) {
  const row = await rowByToken(db, token);
  if (!row) throw new DomainError("not-found", "Proposal not found");
  const today = todayIn(e.STUDIO_TIMEZONE, now);
  const text = String(reason ?? "")
    .trim()
    .slice(0, 2000);
  const won = await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("proposals")
      .set({ status: "declined", declined_at: nowIso(now), decline_reason: text || null, updated_at: nowIso(now) })
      .where("id", "=", row.id)
      .where("status", "=", "sent")
      .where("expires_on", ">=", today)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await addEvent(trx, row.id, "declined", {
      at: now,
      ...who,
      email: contentOf(row).client.email,
      detail: text || null,
    });
    return true;
  });
  if (!won) {
    const fresh = await db.selectFrom("proposals").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    if (fresh.status === "declined") return;
    const problem = closedProblem(fresh, today);
    throw new ProposalClosed(problem?.message ?? PROPOSAL_MESSAGES.notSignable, problem?.status ?? 409);
  }
  await sendMail(db, e, studioNoticeMail(await mailFacts(db, e, row), { kind: "declined", reason: text }));
}

/** The sealed PDF of a signed version, by its link. */
export async function signedPdfByToken(db: DB, token: string) {
  const row = await rowByToken(db, token);
  return row?.status === "signed" && row.pdf_path ? row : null;
}
