/**
 * Invoices and receipts (issue 44.7): one invoice per requested (or paid) stage, numbered
 * INV-YYYY-NNNN without gap or duplicate however many requests run at once, in the studio's year;
 * paid by hand or by card it becomes a receipt; the tax and the studio's details as they were when
 * it was issued. Stripe is the local fake (tests/helpers/stripe-fake.mjs); PDFs are read by pdftotext.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taxIncluded, type ContractSettings } from "#domain/contract-settings";
import { todayIn } from "#domain/payment-plan";
import { sampleContract } from "#domain/sample/contract";
import { renderInvoicePdf } from "../../server/documents/invoice-pdf.server";
import { env, type Env } from "../../server/env.server";
import { recordStageCheckout } from "../../server/payments/card.server";
import { invoiceDoc, invoiceForPayToken } from "../../server/payments/invoices.server";
import { recordPayment } from "../../server/payments/ledger.server";
import { createPlan } from "../../server/payments/plan.server";
import { checkoutForToken, requestStagePayment } from "../../server/payments/requests.server";
import { saveSection } from "../../server/studio/studio.server";
import { bookingRows } from "../helpers/bookings";
import { freshDb, type TestDb } from "../helpers/db";
import { createStripeFake } from "../helpers/stripe-fake.mjs";

let stripe: ReturnType<typeof createStripeFake>;
const server = http.createServer(async (req, res) => {
  if (!(await stripe.handle(req, res))) {
    res.writeHead(404);
    res.end();
  }
});
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "studio-invoices-"));

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stripe = createStripeFake({ base });
  // Read once per file by env() (tests/helpers/vitest-setup.ts gives each file fresh modules).
  process.env.STRIPE_SECRET_KEY = "sk_test_invoices";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_invoices";
  process.env.STRIPE_API_BASE = base;
  process.env.STUDIO_TIMEZONE = ZONE;
  expect(env().STUDIO_TIMEZONE).toBe(ZONE);
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(scratch, { recursive: true, force: true });
});

const ZONE = "America/New_York";
const OWNER = "owner@studio.example";
/** 03:00 UTC on New Year's Day 2027 is still December 31, 2026 in New York: the studio's year is 2026. */
const NEW_YEARS_EVE = new Date("2027-01-01T03:00:00Z");
const NOW = new Date("2026-11-27T15:00:00Z");

const envOf = (t: TestDb): Env => ({ ...env(), DATA_DIR: t.dataDir });

/** `n` Growth bookings ($8,500: Deposit $1,700, Design approval $4,250, Final delivery $2,550). */
async function bookings(t: TestDb, n: number) {
  const rows = bookingRows(n, () => ({ package_name: "Growth" }));
  await t.db.insertInto("bookings").values(rows).execute();
  for (const b of rows) await createPlan(t.db, b.id, b.total_amount);
  return rows.map((b) => b.id);
}

/** The booking's stages in order. */
const stages = (t: TestDb, bookingId: string) =>
  t.db.selectFrom("booking_stages").selectAll().where("booking_id", "=", bookingId).orderBy("position").execute();
const invoices = (t: TestDb) => t.db.selectFrom("invoices").selectAll().orderBy("year").orderBy("seq").execute();
const invoiceOf = (t: TestDb, stageId: string) =>
  t.db.selectFrom("invoices").selectAll().where("stage_id", "=", stageId).executeTakeFirstOrThrow();

async function contract(t: TestDb, change: Partial<ContractSettings>) {
  await saveSection(t.db, "contract", { ...sampleContract, ...change }, OWNER);
}

/** The text of an invoice's PDF as a person reads it. */
async function pdfText(row: Awaited<ReturnType<typeof invoiceOf>>, kind: "invoice" | "receipt" = "invoice") {
  const file = path.join(scratch, `${row.number}-${kind}.pdf`);
  fs.writeFileSync(file, await renderInvoicePdf(invoiceDoc(row, kind, "http://localhost:3000/pay/x")));
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

describe("numbering", () => {
  it("50 requests at once on 50 bookings: INV-YYYY-0001 to 0050 in the studio's year, no gap, no duplicate", async () => {
    const t = await freshDb();
    const e = envOf(t);
    const ids = await bookings(t, 50);
    const firsts = await Promise.all(ids.map(async (id) => (await stages(t, id))[0]));
    const results = await Promise.all(
      firsts.map((s) => requestStagePayment(t.db, e, s.booking_id, s.id, NEW_YEARS_EVE)),
    );
    expect(results.every((r) => r.requested)).toBe(true);
    const year = todayIn(ZONE, NEW_YEARS_EVE).slice(0, 4);
    expect(year).toBe("2026");
    const all = await invoices(t);
    expect(all.map((i) => i.number)).toEqual(
      Array.from({ length: 50 }, (_, i) => `INV-${year}-${String(i + 1).padStart(4, "0")}`),
    );
    expect(new Set(all.map((i) => i.stage_id))).toEqual(new Set(firsts.map((s) => s.id)));
    expect(all.every((i) => i.issued_on === "2026-12-31" && i.total === 170_000 && i.paid_on === null)).toBe(true);
    const counter = await t.db.selectFrom("document_counters").selectAll().execute();
    expect(counter).toEqual([{ name: `invoice-${year}`, last: 50 }]);
    await t.close();
  });

  it("asking for the same stage again issues no second invoice", async () => {
    const t = await freshDb();
    const e = envOf(t);
    const [id] = await bookings(t, 1);
    const [deposit] = await stages(t, id);
    const first = await requestStagePayment(t.db, e, id, deposit.id, NOW);
    const again = await Promise.all([
      requestStagePayment(t.db, e, id, deposit.id, NOW),
      requestStagePayment(t.db, e, id, deposit.id, NOW),
    ]);
    expect(again.map((r) => r.requested)).toEqual([false, false]);
    expect(again.map((r) => r.payPath)).toEqual([first.payPath, first.payPath]);
    expect((await invoices(t)).map((i) => [i.number, i.stage_id])).toEqual([["INV-2026-0001", deposit.id]]);
    const token = first.payPath.split("/").pop()!;
    expect((await invoiceForPayToken(t.db, token))!.number).toBe("INV-2026-0001");
    await t.close();
  });

  it("a request in 2027 after one in 2026 starts INV-2027-0001", async () => {
    const t = await freshDb();
    const e = envOf(t);
    const [a, b, c] = await bookings(t, 3);
    await requestStagePayment(t.db, e, a, (await stages(t, a))[0].id, NOW);
    await requestStagePayment(t.db, e, b, (await stages(t, b))[0].id, NEW_YEARS_EVE);
    await requestStagePayment(t.db, e, c, (await stages(t, c))[0].id, new Date("2027-01-01T06:00:00Z"));
    await requestStagePayment(t.db, e, a, (await stages(t, a))[1].id, new Date("2027-01-04T15:00:00Z"));
    expect((await invoices(t)).map((i) => [i.number, i.issued_on])).toEqual([
      ["INV-2026-0001", "2026-11-27"],
      ["INV-2026-0002", "2026-12-31"],
      ["INV-2027-0001", "2027-01-01"],
      ["INV-2027-0002", "2027-01-04"],
    ]);
    await t.close();
  });
});

describe("receipts", () => {
  it("a stage paid by hand without a request gets its invoice as a receipt", async () => {
    const t = await freshDb();
    const [id] = await bookings(t, 1);
    const [deposit] = await stages(t, id);
    await recordPayment(t.db, id, { amount: "1700", method: "bank", note: "Wire 1183" }, NOW);
    const invoice = await invoiceOf(t, deposit.id);
    expect(invoice).toMatchObject({
      number: "INV-2026-0001",
      issued_on: "2026-11-27",
      paid_on: "2026-11-27",
      total: 170_000,
    });
    const text = await pdfText(invoice, "receipt");
    expect(text).toContain("Receipt");
    expect(text).toContain("INV-2026-0001");
    // A partial payment of the next stage issues nothing yet.
    await recordPayment(t.db, id, { amount: "100", method: "bank" }, NOW);
    expect(await invoices(t)).toHaveLength(1);
    await t.close();
  });

  it("a card payment recorded from Stripe's webhook marks the requested stage's invoice paid", async () => {
    const t = await freshDb();
    const e = envOf(t);
    const [id] = await bookings(t, 1);
    const [deposit] = await stages(t, id);
    const { payPath } = await requestStagePayment(t.db, e, id, deposit.id, NOW);
    expect((await invoiceOf(t, deposit.id)).paid_on).toBeNull();
    const url = await checkoutForToken(t.db, e, payPath.split("/").pop()!, NOW);
    const session = stripe.complete(url!.split("/pay/")[1]);
    const paidAt = new Date("2026-11-30T16:00:00Z");
    expect(await recordStageCheckout(t.db, e, session, paidAt)).toBe("recorded");
    expect(await recordStageCheckout(t.db, e, session, paidAt)).toBe("duplicate");
    const invoice = await invoiceOf(t, deposit.id);
    expect(invoice).toMatchObject({ number: "INV-2026-0001", issued_on: "2026-11-27", paid_on: "2026-11-30" });
    expect(await invoices(t)).toHaveLength(1);
    await t.close();
  });
});

describe("what an invoice says", () => {
  it("tax included at 20%: the tax is a sixth of the amount, the PDF says 'Includes'; exclusive shows a subtotal", async () => {
    const t = await freshDb();
    const e = envOf(t);
    const [a, b] = await bookings(t, 2);
    await contract(t, { taxRate: 20, taxMode: "inclusive", taxLabel: "VAT" });
    await requestStagePayment(t.db, e, a, (await stages(t, a))[0].id, NOW);
    const inclusive = await invoiceOf(t, (await stages(t, a))[0].id);
    const tax = JSON.parse(inclusive.tax!);
    expect(tax).toEqual({ label: "VAT", rate: 20, mode: "inclusive", amount: Math.round((170_000 * 20) / 120) });
    expect(tax.amount).toBe(taxIncluded(170_000, 20));
    expect(tax.amount).toBe(28_333);
    let text = await pdfText(inclusive);
    expect(text).toContain(inclusive.number);
    expect(text).toContain("Includes VAT 20%: $283.33");
    expect(text).not.toContain("Subtotal");

    await contract(t, { taxRate: 20, taxMode: "exclusive", taxLabel: "VAT" });
    await requestStagePayment(t.db, e, b, (await stages(t, b))[0].id, NOW);
    const exclusive = await invoiceOf(t, (await stages(t, b))[0].id);
    expect(JSON.parse(exclusive.tax!)).toMatchObject({ mode: "exclusive", amount: 28_333 });
    text = await pdfText(exclusive);
    expect(text).toContain(exclusive.number);
    expect(text).toContain("Subtotal");
    expect(text).toMatch(/Subtotal\s+\$1,416\.67/);
    expect(text).not.toContain("Includes");
    // The first invoice was issued inclusive, and stays so.
    expect(JSON.parse((await invoiceOf(t, (await stages(t, a))[0].id)).tax!).mode).toBe("inclusive");
    await t.close();
  });

  it("keeps the studio as it was when issued: a new legal name in Settings changes only later invoices", async () => {
    const t = await freshDb();
    const e = envOf(t);
    const [a, b] = await bookings(t, 2);
    await contract(t, { legalName: "Rowan Design LLC", address: "1 Old Street", taxId: "US-1" });
    const first = (await stages(t, a))[0];
    await requestStagePayment(t.db, e, a, first.id, NOW);
    const issued = await invoiceOf(t, first.id);
    expect(JSON.parse(issued.studio)).toMatchObject({
      legalName: "Rowan Design LLC",
      address: "1 Old Street",
      taxId: "US-1",
    });
    expect(JSON.parse(issued.client)).toMatchObject({
      name: "Client 0",
      company: "Company 0",
      email: "client0@example.com",
    });

    await contract(t, { legalName: "Rowan & Co. Ltd", address: "2 New Street", taxId: "US-2" });
    await t.db.updateTable("bookings").set({ company_name: "Renamed Inc." }).where("id", "=", a).execute();
    const reread = await invoiceOf(t, first.id);
    expect(reread.studio).toBe(issued.studio);
    expect(reread.client).toBe(issued.client);
    expect(await pdfText(reread)).toContain("Rowan Design LLC");

    const second = (await stages(t, b))[0];
    await requestStagePayment(t.db, e, b, second.id, NOW);
    expect(JSON.parse((await invoiceOf(t, second.id)).studio)).toMatchObject({ legalName: "Rowan & Co. Ltd" });
    await t.close();
  });
});
