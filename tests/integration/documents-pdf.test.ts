import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type InvoiceDoc, renderInvoicePdf } from "../../server/documents/invoice-pdf.server";
import { winAnsiSafe } from "../../server/documents/pdf-text";
import { appendCertificate, type ProposalDoc, renderProposalPdf } from "../../server/documents/proposal-pdf.server";
import { makeSealKey, sealPdf, sha256Hex } from "../../server/documents/seal.server";

// Issue 44: proposals, contracts and invoices as PDFs. The files are checked by poppler's own tools
// (pdfsig verifies the seal, pdftotext reads what a person would), not by our own parsing.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-documents-"));
const hasPdftotext = fs.existsSync("/usr/bin/pdftotext");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** pdfsig's report; it exits non-zero when a signature does not verify, which is an answer here. */
function pdfsig(file: string): string {
  try {
    return execFileSync("pdfsig", [file], { encoding: "utf8" });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}`;
  }
}

function text(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const studio = {
  name: "North & Pine Studio",
  legalName: "North & Pine Design LLC",
  address: "12 Harbour Street\nPortland, ME 04101",
  taxId: "US-99-1234567",
  email: "hello@northpine.test",
};

const longWord = "x".repeat(300);
const clause = (n: number) =>
  `## ${n}. Clause ${n}\nThe studio delivers the work described in the scope; changes beyond it are quoted separately and agreed in writing before work starts. See https://northpine.test/terms/${n}?ref=${"a".repeat(60)} for details.\n- Payments are due as the plan says.\n\n`;
let terms = "";
for (let n = 1; terms.length < 40_000; n++) terms += clause(n);
terms = `${terms.slice(0, 40_000 - longWord.length - 1)}\n${longWord}`;

const proposal: ProposalDoc = {
  studio,
  title: "Growth website for Acme Inc. — Łukasz Żółć 😀 中文",
  reference: "P-2027-0003 v2",
  client: {
    name: "Łukasz Żółć 😀 中文",
    company: "Acme Inc.",
    email: "lukasz@acme.test",
    address: "ul. Długa 5\n00-001 Warszawa\nPoland",
  },
  createdOn: "2027-03-01",
  expiresOn: "2027-03-31",
  summary: {
    goal: "More qualified leads from the website, with a clear path to booking a call.",
    audience: "Operations managers at mid-size logistics companies",
    features: `Case studies, booking, blog, ${longWord}`,
    startDate: "2027-04-01",
  },
  scope:
    "Discovery workshop and sitemap.\n\nDesign of 8 templates in Figma, two rounds of revisions.\n\n- Build in Remix\n- Launch and handover",
  items: [
    { label: "Growth website package", amount: 1_150_000 },
    { label: "Extra template × 2 “Careers”", amount: 120_000 },
  ],
  discount: { label: "Spring promotion (10%)", amount: 127_000 },
  total: 1_143_000,
  stages: [
    { label: "Deposit", amount: 571_500, due: "On signing" },
    { label: "Launch", amount: 571_500, due: "When the site goes live, at the latest 2027-06-30" },
  ],
  terms,
  signature: {
    name: "Łukasz Żółć",
    signedAt: "2027-03-04T13:00:00.000Z",
    consent: "I agree that my typed name is my electronic signature and that I have read the terms above.",
  },
  countersignature: { name: "Jane Pine", signedAt: "2027-03-04T15:30:00.000Z" },
  zone: "Europe/Berlin",
};

describe("proposal PDFs", () => {
  it("renders, certifies and seals a long proposal that pdfsig verifies, and a changed byte fails", async () => {
    const rendered = await renderProposalPdf(proposal);
    // updateMetadata: false, or loading stamps pdf-lib's own producer and the current time.
    const loaded = await PDFDocument.load(rendered, { updateMetadata: false });
    expect(loaded.getPageCount()).toBeGreaterThan(10);
    expect(loaded.getTitle()).toBe(proposal.title);
    expect(loaded.getAuthor()).toBe(studio.name);
    expect(loaded.getProducer()).toBe("Studio");
    expect(loaded.getCreationDate()?.toISOString()).toBe("2027-03-04T13:00:00.000Z");

    const events = ["viewed", "signed", "countersigned", "emailed", "downloaded"].map((kind, i) => ({
      kind,
      at: `2027-03-04T1${i}:00:0${i}.000Z`,
      ip: i === 4 ? null : `203.0.113.${i + 1}`,
      userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 ${"Chrome/120.0 ".repeat(12)}`,
      email: i === 2 ? "jane@northpine.test" : "lukasz@acme.test",
      detail: i === 1 ? "Typed name “Łukasz Żółć” 😀" : null,
    }));
    const certified = await appendCertificate(rendered, {
      title: proposal.title,
      reference: proposal.reference,
      documentSha256: sha256Hex(rendered),
      events,
      zone: proposal.zone,
    });
    expect((await PDFDocument.load(certified)).getPageCount()).toBeGreaterThan(loaded.getPageCount());

    const key = await makeSealKey("North & Pine Studio (Łódź)");
    expect(key.certificatePem).toContain("BEGIN CERTIFICATE");
    const sealed = await sealPdf(certified, key, {
      reason: "Signed by both parties (proposal P-2027-0003 v2)",
      name: "North & Pine Studio",
      location: "Portland, ME",
      contactInfo: studio.email,
      signingTime: new Date("2027-03-04T15:31:00Z"),
    });
    const file = path.join(dir, "sealed.pdf");
    fs.writeFileSync(file, sealed);
    const report = pdfsig(file);
    expect(report).toContain("Signature Validation: Signature is Valid.");
    // The name in ASCII: forge mangles a non-ASCII name between the certificate and the signature.
    expect(report).toContain("Signer Certificate Common Name: North & Pine Studio (Lodz)");

    if (hasPdftotext) {
      const words = text(sealed, "sealed-text.pdf");
      expect(words).toContain("Signed electronically by Lukasz Zólc on Mar 4, 2027, 2:00 PM (Europe/Berlin)");
      expect(words).toContain("Countersigned by Jane Pine");
      expect(words).toContain("Certificate of completion");
      expect(words).toContain(sha256Hex(rendered));
      expect(words).toContain("$11,430.00");
      expect(words).toContain("-$1,270.00");
    }

    // One byte inside the signed range (in the first stream's data, so the file still parses).
    const range = /\/ByteRange \[0 (\d+) (\d+) (\d+)\]/.exec(sealed.toString("latin1"));
    expect(range).not.toBeNull();
    const at = sealed.indexOf("stream\n") + 40;
    expect(at).toBeLessThan(Number(range![1]));
    const tampered = Buffer.from(sealed);
    tampered[at] ^= 0x01;
    const tamperedFile = path.join(dir, "tampered.pdf");
    fs.writeFileSync(tamperedFile, tampered);
    const tamperedReport = pdfsig(tamperedFile);
    expect(tamperedReport).not.toContain("Signature is Valid");
    expect(tamperedReport).toContain("Digest Mismatch");
  });

  it("gives the same bytes for the same proposal", async () => {
    const unsigned = { ...proposal, signature: null, countersignature: null, terms: "## Terms\nShort." };
    // Rendered a year apart by the clock: nothing of the current time gets into the file.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
    const a = await renderProposalPdf(unsigned);
    vi.setSystemTime(new Date("2031-06-15T12:34:56Z"));
    const b = await renderProposalPdf(unsigned);
    vi.useRealTimers();
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const [c, d] = [await renderProposalPdf(proposal), await renderProposalPdf(proposal)];
    expect(sha256Hex(c)).toBe(sha256Hex(d));
    expect(sha256Hex(a)).not.toBe(sha256Hex(c));
    // Unsigned: the client's line says so; the studio's line is there only once it countersigned.
    if (hasPdftotext) expect(text(a, "unsigned.pdf").match(/Not signed/g)).toHaveLength(1);
  });
});

describe("invoice PDFs", () => {
  const invoice: InvoiceDoc = {
    studio,
    number: "INV-2027-0001",
    kind: "invoice",
    issuedOn: "2027-03-05",
    dueOn: "2027-03-19",
    paidOn: null,
    client: proposal.client,
    items: [{ label: "Deposit for Growth website (stage 1 of 2)", amount: 100_000 }],
    total: 100_000,
    tax: { label: "VAT", rate: 20, mode: "inclusive", amount: 16_667 },
    project: "Growth website for Acme Inc.",
    payLink: `https://northpine.test/pay/${"t".repeat(120)}`,
  };

  it("prints an inclusive tax as a note under the total", async () => {
    const bytes = await renderInvoicePdf(invoice);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThanOrEqual(1);
    if (!hasPdftotext) return;
    const words = text(bytes, "inclusive.pdf");
    for (const s of ["Invoice", "INV-2027-0001", "Includes VAT 20%: $166.67", "$1,000.00", "Due March 19, 2027"])
      expect(words).toContain(s);
    expect(words).toMatch(/Pay online:\s+https:\/\/northpine\.test\/pay\/t{100}/);
    expect(words).toContain("Tax ID: US-99-1234567");
    expect(words).not.toContain("Subtotal");
  });

  it("prints an exclusive tax as subtotal, tax and total", async () => {
    const exclusive: InvoiceDoc = {
      ...invoice,
      items: [{ label: "Launch stage", amount: 83_334 }],
      tax: { label: "VAT", rate: 20, mode: "exclusive", amount: 16_666 },
    };
    const bytes = await renderInvoicePdf(exclusive);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThanOrEqual(1);
    if (!hasPdftotext) return;
    const words = text(bytes, "exclusive.pdf");
    expect(words).toMatch(/Subtotal\s+\$833\.34/);
    expect(words).toMatch(/VAT 20%\s+\$166\.66/);
    expect(words).toMatch(/Total\s+\$1,000\.00/);
    expect(words).not.toContain("Includes VAT");
  });

  it("prints a receipt with the payment date and the amount paid, and the trading name without a legal name", async () => {
    const receipt: InvoiceDoc = {
      ...invoice,
      studio: { ...studio, legalName: "", taxId: "" },
      kind: "receipt",
      dueOn: null,
      paidOn: "2027-03-07",
      tax: null,
      payLink: null,
    };
    const bytes = await renderInvoicePdf(receipt);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThanOrEqual(1);
    if (!hasPdftotext) return;
    const words = text(bytes, "receipt.pdf");
    for (const s of ["Receipt", "INV-2027-0001", "Paid on March 7, 2027", "North & Pine Studio"])
      expect(words).toContain(s);
    expect(words).toMatch(/Amount paid\s+\$1,000\.00/);
    expect(words).not.toMatch(/Invoice|Tax ID|Pay online|Due /);
  });
});

describe("winAnsiSafe", () => {
  it.each([
    ["plain ASCII", "Hello, world! 100%", "Hello, world! 100%"],
    ["cp1252 extras kept", "“Quotes” ‘single’ – — … € ™ • Œ š", "“Quotes” ‘single’ – — … € ™ • Œ š"],
    ["Latin-1 kept", "Café Straße Ø ñ ü ß ©", "Café Straße Ø ñ ü ß ©"],
    ["Polish transliterated", "Łukasz Żółć", "Lukasz Zólc"],
    ["strokes mapped", "Đorđe Łódź", "Dorde Lódz"],
    ["combining marks composed or dropped", "e\u0301 s\u0323", "é s"],
    ["lookalike dashes and quotes", "a‐b−c ‛x‟ ―", "a-b-c ‘x“ —"],
    ["emoji one ? each, family too", "ok 😀 👨‍👩‍👧 👍🏽", "ok ? ? ?"],
    ["CJK", "中文", "??"],
    ["controls but newline", "a\u0007b\nc\u0000", "a?b\nc?"],
    ["CRLF and tabs", "a\r\nb\tc\rd", "a\nb c\nd"],
    ["invisible characters dropped", "soft\u00adhy\u200bphen\ufeff", "softhyphen"],
    ["compatibility forms", "ﬁne Ａ１ \u2003x", "fine A1  x"],
  ])("%s", (_name, input, expected) => {
    expect(winAnsiSafe(input)).toBe(expected);
  });
});
