import type { ColumnType, Generated } from "kysely";

/** Column with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** JSON stored as TEXT; read and written through `server/db/json.ts`. */
type JsonText = string;

/**
 * The tables of proposals, their audit trails and invoices (issue 44; the migration
 * 2026_11_26_1200_create_proposals_and_invoices). Part of `Database` (schema.ts).
 */

/** The last number given in a sequence (`proposal`, `invoice-2027`), taken with the row it numbers. */
export interface DocumentCountersTable {
  name: string;
  last: number;
}

export type ProposalStatus = "draft" | "sent" | "signed" | "declined" | "replaced";

/** One version of a proposal (issue 44): frozen once sent, signed at most once. */
export interface ProposalsTable {
  id: string;
  booking_id: string;
  /** The proposal's number (P-0001), shared by its versions. */
  number: number;
  version: number;
  /** The client's `/proposal/<token>` link. */
  token: string;
  status: ProposalStatus;
  /** ProposalContent as JSON (server/contracts/content.ts). */
  content: JsonText;
  /** Cents: the items less the discount, equal to the plan's stages. */
  total: number;
  /** YYYY-MM-DD in STUDIO_TIMEZONE: signable through that day. */
  expires_on: string;
  /** 1: the studio countersigns after the client. */
  countersign: Defaulted<number>;
  created_by: string;
  created_at: Defaulted<string>;
  updated_at: Defaulted<string>;
  sent_at: Defaulted<string | null>;
  viewed_at: Defaulted<string | null>;
  signed_at: Defaulted<string | null>;
  signer_name: Defaulted<string | null>;
  /** SHA-256 (hex) of the document as the client signed it, before the certificate and seal. */
  document_sha256: Defaulted<string | null>;
  /** The sealed PDF in the `documents` bucket. */
  pdf_path: Defaulted<string | null>;
  declined_at: Defaulted<string | null>;
  decline_reason: Defaulted<string | null>;
  countersigned_at: Defaulted<string | null>;
  countersigner_name: Defaulted<string | null>;
  /** The version that replaced this one. */
  replaced_by: Defaulted<string | null>;
}

export type ProposalEventKind =
  "created" | "sent" | "viewed" | "signed" | "countersigned" | "declined" | "expired" | "extended" | "replaced";

/** The audit trail of a proposal: append only (triggers refuse updates and deletes). */
export interface ProposalEventsTable {
  id: Generated<number>;
  proposal_id: string;
  kind: ProposalEventKind;
  at: string;
  ip: string | null;
  user_agent: string | null;
  email: string | null;
  detail: string | null;
}

/** An invoice (issue 44.7): numbered in sequence per year, its facts as they were when issued. */
export interface InvoicesTable {
  id: string;
  /** INV-2027-0001 */
  number: string;
  year: number;
  seq: number;
  booking_id: string | null;
  stage_id: string | null;
  issued_on: string;
  due_on: string | null;
  /** JSON: the studio's name, legal name, address, tax id and email when issued. */
  studio: JsonText;
  /** JSON: the client's name, company, email and address when issued. */
  client: JsonText;
  /** JSON: `[{label, amount}]`, cents. */
  items: JsonText;
  project: string;
  /** Cents: what the client pays, tax included. */
  total: number;
  /** JSON `{label, rate, mode, amount}` or null. */
  tax: string | null;
  /** YYYY-MM-DD: paid in full (the receipt's date). */
  paid_on: Defaulted<string | null>;
  created_at: Defaulted<string>;
}
