/**
 * Invoices and receipts as PDFs (issue 44). Pure like the proposal: the same invoice gives the same
 * bytes. Amounts are cents; `total` is what the client pays, tax included, so an "exclusive" tax is
 * shown as a subtotal plus the tax rather than added again.
 */
import { pdfLib } from "./packages";
import { addFooters, formatDay, metadataDate, money, MUTED, PdfWriter, type TableRow } from "./pdf-text";
import { type DocStudio, setMetadata, studioHeader } from "./proposal-pdf.server";

export type InvoiceDoc = {
  studio: DocStudio;
  /** "INV-2027-0001" */
  number: string;
  kind: "invoice" | "receipt";
  /** YYYY-MM-DD */
  issuedOn: string;
  dueOn: string | null;
  /** For a receipt: the payment date. */
  paidOn: string | null;
  client: { name: string; company: string; email: string; address: string };
  /** Cents. */
  items: { label: string; amount: number }[];
  /** Cents: what the client pays, tax included. */
  total: number;
  /** `rate` in percent, `amount` in cents. */
  tax: { label: string; rate: number; mode: "inclusive" | "exclusive"; amount: number } | null;
  project: string;
  payLink: string | null;
};

/** 20 → "20%", 7.5 → "7.5%" (no binary noise such as 7.500000001). */
const percent = (rate: number) => `${Number(rate.toFixed(4))}%`;

/** The rows under the items: subtotal and tax when the tax is exclusive, then the total. */
function totalRows(doc: InvoiceDoc): TableRow[] {
  const totalLabel = doc.kind === "receipt" ? "Amount paid" : "Total";
  const total: TableRow = { label: totalLabel, amount: money(doc.total), bold: true, ruleAbove: true };
  if (doc.tax?.mode !== "exclusive") return [total];
  return [
    { label: "Subtotal", amount: money(doc.total - doc.tax.amount), ruleAbove: true },
    { label: `${doc.tax.label} ${percent(doc.tax.rate)}`, amount: money(doc.tax.amount) },
    total,
  ];
}

/**
 * The items as printed: what the client pays, or, when tax is shown exclusive, each item's net
 * share (the last item takes the rounding), so the lines add up to the subtotal.
 */
function lineRows(doc: InvoiceDoc) {
  if (doc.tax?.mode !== "exclusive" || doc.total <= 0)
    return doc.items.map((i) => ({ label: i.label, amount: money(i.amount) }));
  const net = doc.total - doc.tax.amount;
  let left = net;
  return doc.items.map((i, n) => {
    const share = n === doc.items.length - 1 ? left : Math.round((i.amount * net) / doc.total);
    left -= share;
    return { label: i.label, amount: money(share) };
  });
}

export async function renderInvoicePdf(doc: InvoiceDoc): Promise<Uint8Array> {
  const { PDFDocument } = await pdfLib();
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const w = await PdfWriter.create(pdf);
  const receipt = doc.kind === "receipt";
  const title = receipt ? "Receipt" : "Invoice";
  // The trading name as the heading, the legal name (when set and different), address and tax id under it.
  studioHeader(w, doc.studio);
  w.space(8);
  w.paragraph(title, { size: 22, bold: true });
  w.space(6);
  w.keyValues([
    [receipt ? "Receipt number" : "Invoice number", doc.number],
    ["Issued", formatDay(doc.issuedOn)],
    ...(receipt && doc.paidOn ? [["Paid on", formatDay(doc.paidOn)] as [string, string]] : []),
    ...(!receipt && doc.dueOn ? [["Due", formatDay(doc.dueOn)] as [string, string]] : []),
    ...(doc.project.trim() ? [["Project", doc.project] as [string, string]] : []),
  ]);

  w.heading(receipt ? "Received from" : "Bill to");
  const client = [doc.client.name, doc.client.company, doc.client.email, doc.client.address];
  w.paragraph(client.filter((l) => l.trim() !== "").join("\n") || "\u2014");

  w.heading(receipt ? "Payment" : "Charges");
  w.table([...lineRows(doc), ...totalRows(doc)], {
    label: "DESCRIPTION",
    amount: "AMOUNT",
  });
  if (doc.tax?.mode === "inclusive")
    w.paragraph(`Includes ${doc.tax.label} ${percent(doc.tax.rate)}: ${money(doc.tax.amount)}`, {
      size: 9,
      color: MUTED,
    });

  w.space(14);
  if (receipt) {
    w.paragraph(doc.paidOn ? `Paid on ${formatDay(doc.paidOn)}` : "Paid", { bold: true });
    w.paragraph("Thank you for your payment.", { color: MUTED });
  } else {
    if (doc.dueOn) w.paragraph(`Due ${formatDay(doc.dueOn)}`, { bold: true });
    if (doc.payLink) w.paragraph(`Pay online: ${doc.payLink}`);
  }

  addFooters(pdf.getPages(), w.fonts.regular, `${title} ${doc.number}`);
  setMetadata(pdf, {
    title: `${title} ${doc.number}`,
    author: doc.studio.name,
    subject: doc.project,
    at: metadataDate((receipt ? doc.paidOn : null) ?? doc.issuedOn),
  });
  return pdf.save();
}
