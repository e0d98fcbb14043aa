import crypto from "node:crypto";
import { taxIncluded } from "#domain/contract-settings";
import { todayIn } from "#domain/payment-plan";
import type { DB } from "../db/db.server";
import { nextNumber } from "../db/counters.server";
import { fromJson, listFromJson, toJson } from "../db/json";
import { invoicePartySchema, invoiceStudioSchema, invoiceTaxSchema, lineItemSchema } from "../db/json-columns";
import type { InvoicesTable } from "../db/schema";
import type { Selectable } from "kysely";
import { env } from "../env.server";
import { getStudio } from "../studio/studio.server";
import type { InvoiceDoc } from "../documents/invoice-pdf.server";
import type { DocStudio } from "../documents/proposal-pdf.server";
import type { Writer } from "./plan.server";
import { isLinkToken } from "./link-token.server";

/**
 * Invoices and receipts (issue 44.7): every stage asked for (or paid without asking) gets one
 * invoice, numbered INV-YYYY-NNNN in sequence per year of the studio's calendar, with the studio,
 * client, item and tax as they were when it was issued; paying the stage turns it into a receipt.
 * The number is taken in the same transaction as the stage's request, so numbers never skip.
 */

export type InvoiceRow = Selectable<InvoicesTable>;
type Party = InvoiceDoc["client"];
type Tax = NonNullable<InvoiceDoc["tax"]>;

const blankParty: Party = { name: "", company: "", email: "", address: "" };

export const invoiceNumber = (year: number, seq: number) => `INV-${year}-${String(seq).padStart(4, "0")}`;

/** The stage's invoice, issued now when it has none (in the caller's transaction). */
export async function issueInvoice(trx: Writer, stageId: string, now = new Date()): Promise<InvoiceRow> {
  const existing = await trx.selectFrom("invoices").selectAll().where("stage_id", "=", stageId).executeTakeFirst();
  if (existing) return existing;
  const stage = await trx
    .selectFrom("booking_stages")
    .innerJoin("bookings", "bookings.id", "booking_stages.booking_id")
    .select([
      "booking_stages.booking_id",
      "booking_stages.label",
      "booking_stages.amount",
      "booking_stages.due_on",
      "bookings.full_name",
      "bookings.company_name",
      "bookings.email",
      "bookings.billing_address",
      "bookings.package_name",
      "bookings.package_type",
    ])
    .where("booking_stages.id", "=", stageId)
    .executeTakeFirstOrThrow();
  const studio = await getStudio(trx as DB);
  const { contract, identity } = studio;
  const zone = env().STUDIO_TIMEZONE;
  const issuedOn = todayIn(zone, now);
  const year = Number(issuedOn.slice(0, 4));
  const seq = await nextNumber(trx, `invoice-${year}`);
  const project = `${stage.package_name ?? stage.package_type} website`;
  const tax: Tax | null =
    contract.taxRate !== null && contract.taxRate > 0
      ? {
          label: contract.taxLabel,
          rate: contract.taxRate,
          mode: contract.taxMode,
          amount: taxIncluded(stage.amount, contract.taxRate),
        }
      : null;
  const row = {
    id: crypto.randomUUID(),
    number: invoiceNumber(year, seq),
    year,
    seq,
    booking_id: stage.booking_id,
    stage_id: stageId,
    issued_on: issuedOn,
    due_on: stage.due_on,
    studio: toJson({
      name: identity.name,
      legalName: contract.legalName,
      address: contract.address,
      taxId: contract.taxId,
      email: identity.contactEmail,
    } satisfies DocStudio),
    client: toJson({
      name: stage.full_name,
      company: stage.company_name,
      email: stage.email,
      address: stage.billing_address,
    } satisfies Party),
    items: toJson([{ label: `${stage.label}: ${project} for ${stage.company_name}`, amount: stage.amount }]),
    project,
    total: stage.amount,
    tax: tax ? toJson(tax) : null,
  };
  await trx.insertInto("invoices").values(row).execute();
  return trx.selectFrom("invoices").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
}

/** A stage paid in full: its invoice (issued now if it had none) becomes a receipt dated `paidAt`. */
export async function settleInvoice(trx: Writer, stageId: string, paidAt: string): Promise<void> {
  const invoice = await issueInvoice(trx, stageId, new Date(paidAt));
  if (invoice.paid_on) return;
  await trx
    .updateTable("invoices")
    .set({ paid_on: todayIn(env().STUDIO_TIMEZONE, new Date(paidAt)) })
    .where("id", "=", invoice.id)
    .execute();
}

/** What the PDF of an invoice (or, once paid, its receipt) prints. */
export function invoiceDoc(row: InvoiceRow, kind: "invoice" | "receipt", payLink: string | null): InvoiceDoc {
  return {
    studio: fromJson(row.studio, invoiceStudioSchema, { name: "", legalName: "", address: "", taxId: "", email: "" }),
    number: row.number,
    kind,
    issuedOn: row.issued_on,
    dueOn: row.due_on,
    paidOn: kind === "receipt" ? row.paid_on : null,
    client: fromJson(row.client, invoicePartySchema, blankParty),
    items: listFromJson(row.items, lineItemSchema),
    total: row.total,
    tax: fromJson(row.tax, invoiceTaxSchema.nullable(), null),
    project: row.project,
    payLink: kind === "invoice" && !row.paid_on ? payLink : null,
  };
}

/** The invoice of the stage behind a `/pay/<token>` link, or null. */
export async function invoiceForPayToken(db: DB, token: string): Promise<InvoiceRow | null> {
  if (!isLinkToken(token)) return null;
  const row = await db
    .selectFrom("invoices")
    .innerJoin("booking_stages", "booking_stages.id", "invoices.stage_id")
    .selectAll("invoices")
    .where("booking_stages.pay_token", "=", token)
    .executeTakeFirst();
  return row ?? null;
}

export type AdminInvoice = {
  id: string;
  number: string;
  issuedOn: string;
  dueOn: string | null;
  paidOn: string | null;
  client: string;
  total: number;
  bookingId: string | null;
};

/** Every invoice, newest first (the console's list). */
export async function adminInvoices(db: DB, limit = 200): Promise<AdminInvoice[]> {
  const rows = await db
    .selectFrom("invoices")
    .selectAll()
    .orderBy("year", "desc")
    .orderBy("seq", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const c = fromJson(r.client, invoicePartySchema, blankParty);
    return {
      id: r.id,
      number: r.number,
      issuedOn: r.issued_on,
      dueOn: r.due_on,
      paidOn: r.paid_on,
      client: c.company ? `${c.name}, ${c.company}` : c.name,
      total: r.total,
      bookingId: r.booking_id,
    };
  });
}
