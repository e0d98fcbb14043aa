/**
 * The proposal (and, once signed, the contract) as a PDF, and the certificate of completion that
 * closes it (issue 44). Rendering is pure: the same document gives the same bytes (fixed metadata
 * dates, no random ids), so a stored hash can be checked by rendering again.
 */
import { pdfLib } from "./packages";
import type { PDFDocument } from "pdf-lib";
import { addFooters, formatDay, formatMoment, metadataDate, money, MUTED, PdfWriter, type TableRow } from "./pdf-text";

export type DocStudio = { name: string; legalName: string; address: string; taxId: string; email: string };

export type ProposalDoc = {
  studio: DocStudio;
  /** e.g. "Growth website for Acme Inc." */
  title: string;
  /** e.g. "P-2027-0003 v2" */
  reference: string;
  client: { name: string; company: string; email: string; address: string };
  /** YYYY-MM-DD */
  createdOn: string;
  /** YYYY-MM-DD */
  expiresOn: string;
  summary: { goal: string; audience: string; features: string; startDate: string };
  /** Paragraphs separated by blank lines. */
  scope: string;
  /** Cents. */
  items: { label: string; amount: number }[];
  /** A positive amount in cents, subtracted. */
  discount: { label: string; amount: number } | null;
  /** Cents. */
  total: number;
  /** `due` is free text such as "On signing". */
  stages: { label: string; amount: number; due: string }[];
  /** Paragraphs; lines starting with "## " are headings. */
  terms: string;
  /** `signedAt` is an ISO time. */
  signature: { name: string; signedAt: string; consent: string } | null;
  countersignature: { name: string; signedAt: string } | null;
  /** The IANA zone times are printed in. */
  zone: string;
};

export type AuditEvent = {
  kind: string;
  at: string;
  ip: string | null;
  userAgent: string | null;
  email: string | null;
  detail: string | null;
};

/** The studio's name and, beneath it, the legal details that are set (a header for every document). */
export function studioHeader(w: PdfWriter, studio: DocStudio): void {
  w.paragraph(studio.name, { size: 20, bold: true });
  w.space(2);
  const details = [
    studio.legalName && studio.legalName !== studio.name ? studio.legalName : "",
    studio.address.replace(/\s*\n\s*/g, ", "),
    studio.email,
    studio.taxId ? `Tax ID: ${studio.taxId}` : "",
  ].filter((d) => d.trim() !== "");
  if (details.length) w.paragraph(details.join("  \u00B7  "), { size: 9, color: MUTED });
  w.rule();
}

/** Fixed metadata, so that the bytes depend on the document only. */
export function setMetadata(pdf: PDFDocument, meta: { title: string; author: string; subject: string; at: Date }) {
  pdf.setTitle(meta.title);
  pdf.setAuthor(meta.author);
  pdf.setSubject(meta.subject);
  pdf.setCreator("Studio");
  pdf.setProducer("Studio");
  pdf.setCreationDate(meta.at);
  pdf.setModificationDate(meta.at);
}

export async function renderProposalPdf(doc: ProposalDoc): Promise<Uint8Array> {
  // updateMetadata: false, or pdf-lib stamps the current time (and its own name) into the file.
  const { PDFDocument } = await pdfLib();
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const w = await PdfWriter.create(pdf);

  studioHeader(w, doc.studio);
  w.space(8);
  w.paragraph(doc.title, { size: 17, bold: true });
  w.paragraph(`Proposal ${doc.reference}`, { size: 10, color: MUTED });
  w.space(10);
  w.keyValues([
    ["Date", formatDay(doc.createdOn)],
    ["Valid until", formatDay(doc.expiresOn)],
  ]);

  w.heading("Prepared for");
  w.keyValues([
    ["Name", doc.client.name],
    ["Company", doc.client.company],
    ["Email", doc.client.email],
    ["Address", doc.client.address],
  ]);

  w.heading("Project summary");
  w.keyValues([
    ["Goal", doc.summary.goal],
    ["Audience", doc.summary.audience],
    ["Key features", doc.summary.features],
    ["Preferred start", doc.summary.startDate],
  ]);

  if (doc.scope.trim()) {
    w.heading("Scope");
    w.richText(doc.scope);
  }

  w.heading("Investment");
  const rows: TableRow[] = doc.items.map((i) => ({ label: i.label, amount: money(i.amount) }));
  if (doc.discount) rows.push({ label: doc.discount.label || "Discount", amount: money(-doc.discount.amount) });
  rows.push({ label: "Total", amount: money(doc.total), bold: true, ruleAbove: true });
  w.table(rows, { label: "ITEM", amount: "AMOUNT" });

  if (doc.stages.length) {
    w.heading("Payment plan");
    w.table(
      doc.stages.map((s) => ({ label: s.label, note: s.due, amount: money(s.amount) })),
      { label: "STAGE", note: "DUE", amount: "AMOUNT" },
    );
  }

  if (doc.terms.trim()) {
    w.heading("Terms");
    w.richText(doc.terms);
  }

  w.heading("Signatures");
  w.paragraph("Client", { size: 9, color: MUTED, bold: true });
  if (doc.signature) {
    w.paragraph(`Signed electronically by ${doc.signature.name} on ${formatMoment(doc.signature.signedAt, doc.zone)}`, {
      bold: true,
    });
    if (doc.signature.consent.trim()) w.paragraph(doc.signature.consent, { size: 9, color: MUTED });
  } else w.paragraph("Not signed", { color: MUTED });
  // The studio's line only when it countersigns (a signed agreement without one is complete).
  if (doc.countersignature) {
    w.space(8);
    w.paragraph(doc.studio.name, { size: 9, color: MUTED, bold: true });
    w.paragraph(
      `Countersigned by ${doc.countersignature.name} on ${formatMoment(doc.countersignature.signedAt, doc.zone)}`,
      { bold: true },
    );
  }

  addFooters(pdf.getPages(), w.fonts.regular, `${doc.title}  \u00B7  ${doc.reference}`);
  setMetadata(pdf, {
    title: doc.title,
    author: doc.studio.name,
    subject: `Proposal ${doc.reference}`,
    at: metadataDate(doc.signature?.signedAt ?? doc.createdOn),
  });
  return pdf.save();
}

/**
 * The certificate of completion, appended as new pages: what was signed (title, reference and the
 * SHA-256 of the signed document's bytes) and every audit event, in the studio's zone and in UTC.
 * The pages before it are kept as they are.
 */
export async function appendCertificate(
  pdfBytes: Uint8Array,
  cert: { title: string; reference: string; documentSha256: string; events: AuditEvent[]; zone: string },
): Promise<Uint8Array> {
  const { PDFDocument } = await pdfLib();
  const pdf = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  const first = pdf.getPageCount();
  const w = await PdfWriter.create(pdf);

  w.paragraph("Certificate of completion", { size: 20, bold: true });
  w.rule();
  w.keyValues([
    ["Document", cert.title],
    ["Reference", cert.reference],
    ["SHA-256", cert.documentSha256],
    ["Times shown in", cert.zone],
  ]);
  w.paragraph(
    "The SHA-256 above is the fingerprint of the signed document without this certificate: any change to that document changes it.",
    { size: 9, color: MUTED },
  );

  w.heading("Audit trail");
  if (cert.events.length === 0) w.paragraph("No events recorded.", { color: MUTED });
  for (const e of cert.events) {
    const at = new Date(e.at);
    w.ensure(130); // an event's first rows stay together

    w.keyValues([
      ["Event", e.kind],
      ["Time", formatMoment(e.at, cert.zone, true)],
      ["UTC", Number.isNaN(at.getTime()) ? e.at : at.toISOString()],
      ["Email", e.email ?? ""],
      ["IP address", e.ip ?? ""],
      ["User agent", e.userAgent ?? ""],
      ["Detail", e.detail ?? ""],
    ]);
    w.rule();
  }

  addFooters(
    pdf.getPages().slice(first),
    w.fonts.regular,
    `${cert.title}  \u00B7  ${cert.reference}`,
    "Certificate page",
  );
  return pdf.save();
}
