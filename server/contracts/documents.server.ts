import crypto from "node:crypto";
import { proposalReference, type ProposalContent } from "#domain/proposal";
import type { DB } from "../db/db.server";
import { readFlag } from "../db/flags.server";
import { fromJson } from "../db/json";
import { proposalContentSchema } from "../db/json-columns";
import type { ProposalsTable } from "../db/schema";
import type { Selectable } from "kysely";
import { createStorage } from "../storage/storage.server";
import { getStudio } from "../studio/studio.server";
import type { AuditEvent, DocStudio, ProposalDoc } from "../documents/proposal-pdf.server";
import type { SealKey } from "../documents/seal.server";

// pdf-lib, node-forge and @signpdf (about 1.5 MB) load at the first document, not at every start.
const pdfModule = () => import("../documents/proposal-pdf.server");
const sealModule = () => import("../documents/seal.server");

/**
 * A signed proposal as a document (issue 44.3): the agreement rendered as a PDF, its SHA-256, a
 * certificate page carrying the audit trail and that hash, and a digital seal over all of it with
 * the studio's key. The key is made on first use and kept in the database (`studio_flags`), so
 * every backup carries it; the sealed PDF is kept in the `documents` bucket.
 */

export type ProposalRow = Selectable<ProposalsTable>;

const SEAL_FLAG = "document_seal_key";

const emptyContent: ProposalContent = {
  title: "",
  client: { name: "", company: "", email: "", address: "" },
  summary: { goal: "", audience: "", features: "", startDate: "" },
  scope: "",
  items: [],
  discount: null,
  stages: [],
  terms: "",
};

export function contentOf(row: Pick<ProposalRow, "content">): ProposalContent {
  return fromJson(row.content, proposalContentSchema, emptyContent);
}

export const referenceOf = (row: Pick<ProposalRow, "number" | "version">) => proposalReference(row.number, row.version);

/** The studio's sealing key, made (and kept) the first time a document is sealed. */
export async function sealKey(db: DB): Promise<SealKey> {
  const read = async () => {
    const raw = await readFlag(db, SEAL_FLAG);
    if (raw === null) return null;
    const v = JSON.parse(raw) as { p12: string; passphrase: string; certificatePem: string };
    return { p12: Buffer.from(v.p12, "base64"), passphrase: v.passphrase, certificatePem: v.certificatePem };
  };
  const kept = await read();
  if (kept) return kept;
  const { identity } = await getStudio(db);
  const { makeSealKey } = await sealModule();
  const made = await makeSealKey(identity.name || "Studio");
  await db
    .insertInto("studio_flags")
    .values({
      key: SEAL_FLAG,
      value: JSON.stringify({
        p12: made.p12.toString("base64"),
        passphrase: made.passphrase,
        certificatePem: made.certificatePem,
      }),
    })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  // Two first seals at once: the key that was kept is the one used.
  return (await read()) ?? made;
}

export async function docStudio(db: DB): Promise<DocStudio> {
  const { identity, contract } = await getStudio(db);
  return {
    name: identity.name,
    legalName: contract.legalName,
    address: contract.address,
    taxId: contract.taxId,
    email: identity.contactEmail,
  };
}

/** What the PDF of a version prints, signed by `signature` (and countersigned) when given. */
export function proposalDoc(
  row: ProposalRow,
  studio: DocStudio,
  zone: string,
  signature: ProposalDoc["signature"],
  countersignature: ProposalDoc["countersignature"],
): ProposalDoc {
  const c = contentOf(row);
  return {
    studio,
    title: c.title,
    reference: referenceOf(row),
    client: c.client,
    createdOn: row.created_at.slice(0, 10),
    expiresOn: row.expires_on,
    summary: c.summary,
    scope: c.scope,
    items: c.items,
    discount: c.discount,
    total: row.total,
    stages: c.stages,
    terms: c.terms,
    signature,
    countersignature,
    zone,
  };
}

export type SealedDocument = { sha256: string; path: string; pdf: Buffer };

/**
 * Renders the document, hashes it, appends the certificate (the trail and the hash) and seals it;
 * the sealed file is written under a name of its own (never replacing one), which the caller
 * records or, when its transaction loses a race, removes.
 */
export async function sealedDocument(
  db: DB,
  dataDir: string,
  row: ProposalRow,
  doc: ProposalDoc,
  events: AuditEvent[],
  extraEvent?: (sha256: string) => AuditEvent,
): Promise<SealedDocument> {
  const [{ renderProposalPdf, appendCertificate }, { sealPdf, sha256Hex }] = await Promise.all([
    pdfModule(),
    sealModule(),
  ]);
  const document = await renderProposalPdf(doc);
  const sha256 = sha256Hex(document);
  const trail = extraEvent ? [...events, extraEvent(sha256)] : events;
  const withCertificate = await appendCertificate(document, {
    title: doc.title,
    reference: doc.reference,
    documentSha256: sha256,
    events: trail,
    zone: doc.zone,
  });
  const key = await sealKey(db);
  const pdf = await sealPdf(withCertificate, key, {
    reason: doc.countersignature ? "Signed by the client and countersigned by the studio" : "Signed by the client",
    name: doc.studio.legalName || doc.studio.name,
    location: "",
    contactInfo: doc.studio.email,
    signingTime: new Date(doc.countersignature?.signedAt ?? doc.signature?.signedAt ?? Date.now()),
  });
  const path = `proposals/${row.number}/${row.id}-${crypto.randomBytes(6).toString("hex")}.pdf`;
  createStorage(dataDir).put("documents", path, pdf);
  return { sha256, path, pdf };
}

export function removeDocument(dataDir: string, path: string): void {
  createStorage(dataDir).remove("documents", path);
}

/** The sealed PDF of a signed version, or null. */
export function readDocument(dataDir: string, path: string | null): Buffer | null {
  return path ? createStorage(dataDir).read("documents", path) : null;
}
