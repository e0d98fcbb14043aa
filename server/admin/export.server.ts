import { eachLedgerRow } from "../payments/money.server";
import type { DB } from "../db/db.server";
import { eachBooking, type BookingFilter, type StudioZone } from "./bookings.server";
import { eachPurchase } from "./purchases.server";

/**
 * What a spreadsheet (Excel, LibreOffice, Google Sheets) may read as the start of a formula: =, +,
 * -, @ and their full-width forms, after any leading spaces, or a cell that starts with a tab, a
 * carriage return or a line break (issue 40.5).
 */
const FORMULA_START = /^(?:[\s\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\t\r\n])/;

/**
 * An amount we wrote ourselves ("-500.00"): a spreadsheet reads it as a number, so a refund's minus
 * sign is kept rather than neutralised (the ledger's amounts add up to Total Revenue, issue 41.1).
 */
export class CsvFigure {
  constructor(readonly text: string) {
    if (!/^-?\d+(?:\.\d+)?$/.test(text)) throw new TypeError(`Not a figure: ${JSON.stringify(text)}`);
  }
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
 * A cell a spreadsheet would run as a formula (FORMULA_START) is prefixed with ' so it is shown
 * as text.
 */
export function csvCell(value: unknown): string {
  if (value instanceof CsvFigure) return value.text;
  let text = value == null ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** A header line, then one line per row as the rows are read: never the whole file in memory. */
function csvStream(header: string[], rows: AsyncIterable<unknown[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvLine(header)));
        return;
      }
      // Up to 200 rows per chunk: few writes, little held at once.
      let chunk = "";
      for (let i = 0; i < 200; i++) {
        const next = await iterator.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += csvLine(next.value);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

async function* bookingLines(db: DB, studio: StudioZone, filter: BookingFilter) {
  for await (const b of eachBooking(db, studio, filter)) {
    yield [
      b.createdAt,
      b.fullName,
      b.email,
      b.phone ?? "",
      b.companyName,
      b.packageName,
      dollars(b.totalAmount),
      dollars(b.amountPaid),
      b.status,
      b.desiredStartDate ?? "",
      b.timelineUrgency ?? "",
      b.isNewSite ? "New site" : (b.websiteUrl ?? ""),
      b.projectGoals.join("; "),
      b.source ?? "",
      b.attribution.utmSource ?? "",
      b.attribution.utmMedium ?? "",
      b.attribution.utmCampaign ?? "",
      b.attribution.referrer ?? "",
    ];
  }
}

async function* purchaseLines(db: DB, filter: { q?: string }) {
  for await (const p of eachPurchase(db, filter)) {
    yield [p.createdAt, p.email, p.fullName ?? "", p.templateName, dollars(p.amountPaid), p.status, p.licenseKey];
  }
}

/** The bookings of a console view as CSV, streamed. */
export function bookingsCsv(db: DB, studio: StudioZone, filter: BookingFilter): ReadableStream<Uint8Array> {
  return csvStream(
    [
      "Created",
      "Name",
      "Email",
      "Phone",
      "Company",
      "Package",
      "Total (USD)",
      "Paid (USD)",
      "Status",
      "Preferred start",
      "Timeline",
      "Website",
      "Goal",
      "Source",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "Referrer",
    ],
    bookingLines(db, studio, filter),
  );
}

/** The purchases of a console view as CSV, streamed. */
export function purchasesCsv(db: DB, filter: { q?: string }): ReadableStream<Uint8Array> {
  return csvStream(
    ["Date", "Email", "Name", "Template", "Amount (USD)", "Status", "License key"],
    purchaseLines(db, filter),
  );
}

const LEDGER_METHODS: Record<string, string> = { card: "Card", bank: "Bank transfer", cash: "Cash", other: "Other" };

async function* ledgerLines(db: DB) {
  for await (const r of eachLedgerRow(db)) {
    yield [
      r.occurredAt,
      r.kind === "refund" ? "Refund" : "Payment",
      r.party,
      r.subject,
      r.bookingId ? "Booking" : r.purchaseId ? "Template" : "",
      r.bookingId ?? r.purchaseId ?? "",
      new CsvFigure(dollars(r.kind === "refund" ? -r.amount : r.amount)),
      LEDGER_METHODS[r.method] ?? r.method,
      r.stripePaymentIntent ?? "",
      r.stripeCheckoutSession ?? "",
      r.stripeRefund ?? "",
      r.note ?? "",
      r.invoiceNumber ?? "",
    ];
  }
}

/** The ledger: every payment and refund (refunds negative), newest first, streamed. */
export function ledgerCsv(db: DB): ReadableStream<Uint8Array> {
  return csvStream(
    [
      "Date",
      "Kind",
      "Client or buyer",
      "For",
      "Booking or template",
      "Id",
      "Amount (USD)",
      "Method",
      "Stripe payment",
      "Stripe checkout",
      "Stripe refund",
      "Note",
      "Invoice",
    ],
    ledgerLines(db),
  );
}
