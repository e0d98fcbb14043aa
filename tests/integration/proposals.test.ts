/**
 * From call to contract (issue 44): a proposal drafted from a booking, edited as the console posts
 * it, sent, viewed, signed (a sealed PDF that poppler's pdfsig verifies), declined, expired,
 * extended, revised and countersigned; the first stage requested on signing through the Stripe fake
 * (tests/helpers/stripe-fake.mjs); the audit trail append-only. Real SQLite per test; what is
 * checked is what the database, the outbox and the stored documents hold.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import { addDays, todayIn } from "#domain/payment-plan";
import { CONSENT_TEXT, PROPOSAL_MESSAGES, proposalFormValues } from "#domain/proposal";
import { sampleContract } from "#domain/sample/contract";
import { countersignProposal } from "../../server/contracts/countersign.server";
import { contentOf } from "../../server/contracts/documents.server";
import { bookingProposals } from "../../server/contracts/console.server";
import {
  createProposal,
  extendProposal,
  reviseProposal,
  sendProposal,
  updateProposal,
} from "../../server/contracts/proposals.server";
import { declineProposal, ProposalClosed, proposalPage, signProposal } from "../../server/contracts/signing.server";
import { env, type Env } from "../../server/env.server";
import { DomainError } from "../../server/errors";
import { createPlan, updateStage } from "../../server/payments/plan.server";
import { getStudio, saveSection } from "../../server/studio/studio.server";
import { freshDb, type TestDb } from "../helpers/db";
import { withSealKey } from "../helpers/seal-key";
import { createStripeFake } from "../helpers/stripe-fake.mjs";

// ---------- The Stripe fake and the environment ----------

let stripe: ReturnType<typeof createStripeFake>;
const server = http.createServer(async (req, res) => {
  if (!(await stripe.handle(req, res))) {
    res.writeHead(404);
    res.end();
  }
});
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "studio-proposals-"));

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stripe = createStripeFake({ base });
  // Read once per file by env() (tests/helpers/vitest-setup.ts gives each file fresh modules).
  process.env.STRIPE_SECRET_KEY = "sk_test_proposals";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_proposals";
  process.env.STRIPE_API_BASE = base;
  process.env.STUDIO_TIMEZONE = "America/New_York";
  expect(env().STRIPE_API_BASE).toBe(base);
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The environment with this test's data folder (the sealed PDFs go under it); `stripe: false` turns card payments off. */
function envOf(t: TestDb, opts: { stripe?: boolean } = {}): Env {
  const e = { ...env(), DATA_DIR: t.dataDir };
  return opts.stripe === false ? { ...e, STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined } : e;
}

// ---------- A booking, and the owner's and client's steps ----------

const ZONE = "America/New_York";
/** A Friday afternoon in New York; every step below passes its own `now`. */
const NOW = new Date("2026-11-27T15:00:00Z");
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const OWNER = "owner@studio.example";
const CLIENT = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0" };

/** Growth $8,500 with SEO setup ($600) and two extra pages ($200 each), 10% off: $8,550. */
const PACKAGE = 850_000;
const ADDONS = [
  { id: "seo", quantity: 1, name: "SEO setup", price: 60_000 },
  { id: "extra-page", quantity: 2, name: "Extra page", price: 20_000 },
];
const LISTED = PACKAGE + 60_000 + 40_000;
const TOTAL = LISTED * 0.9;

async function booking(t: TestDb, id = "b1", email = "ada@client.example") {
  await t.db
    .insertInto("bookings")
    .values({
      id,
      user_id: null,
      email,
      full_name: "Ada Client",
      company_name: "Lovelace Labs",
      phone: null,
      package_type: "growth",
      package_name: "Growth",
      package_price: PACKAGE,
      total_amount: TOTAL,
      discount_percent: 10,
      addons: JSON.stringify(ADDONS),
      target_audience: "Analysts",
      project_goals: JSON.stringify(["More leads"]),
      website_url: null,
      desired_start_date: "2027-01-04",
      source: null,
    })
    .execute();
  await createPlan(t.db, id, TOTAL);
  return id;
}

const row = (t: TestDb, id: string) =>
  t.db.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const events = (t: TestDb, id: string) =>
  t.db.selectFrom("proposal_events").selectAll().where("proposal_id", "=", id).orderBy("id").execute();
const kinds = async (t: TestDb, id: string) => (await events(t, id)).map((e) => e.kind);
const outbox = (t: TestDb) => t.db.selectFrom("email_outbox").selectAll().orderBy("id").execute();

/** A booking and its proposal, sent: the proposal's id and link token. */
/** A fresh studio (with the file's sealing key) and one proposal sent from booking b1. */
async function sentCase() {
  const t = await freshDb();
  await withSealKey(t.db);
  const e = envOf(t);
  return { t, e, ...(await sentProposal(t, e)) };
}

async function sentProposal(t: TestDb, e = envOf(t), bookingId = "b1") {
  await booking(t, bookingId, `${bookingId}@client.example`);
  const id = await createProposal(t.db, e, bookingId, OWNER, NOW);
  await sendProposal(t.db, e, id, OWNER, NOW);
  return { id, token: (await row(t, id)).token };
}

const sign = (t: TestDb, token: string, name = "Augusta Ada King", e = envOf(t), now = later(60)) =>
  signProposal(t.db, e, token, { name, consent: "on" }, CLIENT, now);

/** The console's form fields of a draft, flattened as conform names them (`items[0].label`). */
function flatten(value: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  else out[prefix] = String(value ?? "");
  return out;
}
const formOf = (r: { content: string; expires_on: string }) => flatten(proposalFormValues(contentOf(r), r.expires_on));

// ---------- The stored PDF, read by poppler ----------

const storedPdf = (t: TestDb, pdfPath: string) => path.join(t.dataDir, "storage", "documents", pdfPath);

/** pdfsig's report; it exits non-zero when a signature does not verify, which is an answer here. */
function pdfsig(file: string): string {
  try {
    return execFileSync("pdfsig", [file], { encoding: "utf8" });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}`;
  }
}
const pdftotext = (file: string) => execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
const squeezed = (s: string) => s.replace(/\s+/g, "");

/** A copy of the file with one byte changed halfway through, outside the signature's /Contents hex. */
function tampered(file: string): string {
  const bytes = fs.readFileSync(file);
  const text = bytes.toString("latin1");
  const sig = [...text.matchAll(/\/Contents\s*<([0-9A-Fa-f]+)>/g)].find((m) => m[1].length > 1000)!;
  expect(sig).toBeDefined();
  const [from, to] = [sig.index!, sig.index! + sig[0].length];
  let at = Math.floor(bytes.length / 2);
  if (at >= from && at < to) at = Math.floor(from / 2);
  bytes[at] ^= 0x20;
  const copy = path.join(scratch, `tampered-${path.basename(file)}`);
  fs.writeFileSync(copy, bytes);
  return copy;
}

/** The attachments of a mail as the outbox keeps them. */
type Attachment = { filename: string; contentType: string; content: string; encoding?: string };
const attachmentsOf = (m: { attachments: string | null }) => JSON.parse(m.attachments ?? "[]") as Attachment[];

// ---------- The tests ----------

describe("drafting and editing a proposal", () => {
  it("drafts from the booking: items, promotion, total, the plan, the terms filled in, open 14 days; once per booking", async () => {
    const t = await freshDb();
    const e = envOf(t);
    await booking(t);
    const id = await createProposal(t.db, e, "b1", OWNER, NOW);
    const r = await row(t, id);
    const c = contentOf(r);
    expect(r).toMatchObject({ booking_id: "b1", number: 1, version: 1, status: "draft", total: TOTAL, countersign: 0 });
    expect(c.items).toEqual([
      { label: "Growth website", amount: PACKAGE },
      { label: "SEO setup", amount: 60_000 },
      { label: "Extra page × 2", amount: 40_000 },
    ]);
    expect(c.discount).toEqual({ label: "Promotion (10% off)", amount: LISTED - TOTAL });
    expect(c.items.reduce((s, i) => s + i.amount, 0) - c.discount!.amount).toBe(TOTAL);
    const plan = await t.db
      .selectFrom("booking_stages")
      .select(["label", "amount"])
      .where("booking_id", "=", "b1")
      .orderBy("position")
      .execute();
    expect(c.stages.map((s) => ({ label: s.label, amount: s.amount }))).toEqual(plan);
    expect(c.stages[0].due).toBe("On signing");
    expect(c.client).toEqual({
      name: "Ada Client",
      company: "Lovelace Labs",
      email: "ada@client.example",
      address: "",
    });
    // The terms: every placeholder filled in with this client's facts.
    const { identity } = await getStudio(t.db);
    expect(c.terms).not.toMatch(/\{(client|company|package|total|studio|date|stages)\}/);
    for (const fact of ["Ada Client", "Lovelace Labs", formatMoney(TOTAL), identity.name, "Growth"])
      expect(c.terms).toContain(fact);
    expect(r.expires_on).toBe(addDays(todayIn(ZONE, NOW), 14));
    expect(r.expires_on).toBe("2026-12-11");
    expect(await kinds(t, id)).toEqual(["created"]);

    // A second click: the same draft, no second row.
    expect(await createProposal(t.db, e, "b1", OWNER, later(1))).toBe(id);
    expect(await t.db.selectFrom("proposals").select("id").execute()).toHaveLength(1);

    // Another booking: the next number.
    await booking(t, "b2", "grace@client.example");
    const second = await createProposal(t.db, e, "b2", OWNER, NOW);
    expect((await row(t, second)).number).toBe(2);
    expect((await bookingProposals(t.db, e, "b1", NOW))[0].reference).toBe("P-0001");
    expect((await bookingProposals(t.db, e, "b2", NOW))[0].reference).toBe("P-0002");
    await t.close();
  });

  it("saves the console's fields, and refuses a change that makes the items and the plan disagree", async () => {
    const t = await freshDb();
    await withSealKey(t.db);
    const e = envOf(t);
    await booking(t);
    const id = await createProposal(t.db, e, "b1", OWNER, NOW);
    const fields = formOf(await row(t, id));
    expect(fields).toMatchObject({
      "items[0].label": "Growth website",
      "items[0].amount": "8500.00",
      "stages[1].amount": "4275.00",
    });

    // $1,000 more on the package and on the design stage: they still agree.
    await updateProposal(
      t.db,
      e,
      id,
      {
        ...fields,
        title: "  A Growth website  ",
        "items[0].label": "Growth website, 8 templates",
        "items[0].amount": "9,500",
        "stages[1].amount": "5275.00",
        discountLabel: "Spring promotion",
        clientAddress: "1 Analytical Way\nLondon",
      },
      NOW,
    );
    let r = await row(t, id);
    let c = contentOf(r);
    expect(r.total).toBe(TOTAL + 100_000);
    expect(c.title).toBe("A Growth website");
    expect(c.items[0]).toEqual({ label: "Growth website, 8 templates", amount: 950_000 });
    expect(c.stages.map((s) => s.amount)).toEqual([171_000, 527_500, 256_500]);
    expect(c.discount).toEqual({ label: "Spring promotion", amount: LISTED - TOTAL });
    expect(c.client.address).toBe("1 Analytical Way\nLondon");

    // The discount raised by $100 without the plan following: refused in the plan's own words.
    const before = r.content;
    await expect(updateProposal(t.db, e, id, { ...formOf(r), discountAmount: "1050.00" }, NOW)).rejects.toThrow(
      PROPOSAL_MESSAGES.planMismatch(TOTAL + 100_000, TOTAL + 90_000),
    );
    await expect(updateProposal(t.db, e, id, { ...formOf(r), "items[2].amount": "500" }, NOW)).rejects.toThrow(
      PROPOSAL_MESSAGES.planMismatch(TOTAL + 100_000, TOTAL + 110_000),
    );
    r = await row(t, id);
    expect(r.content).toBe(before);
    c = contentOf(r);
    expect(c.items[2].amount).toBe(40_000);
    await t.close();
  });

  it("will not send a draft whose items and plan disagree (the booking's plan was edited first): nothing sent", async () => {
    const t = await freshDb();
    await withSealKey(t.db);
    const e = envOf(t);
    await booking(t);
    const [deposit] = await t.db
      .selectFrom("booking_stages")
      .select("id")
      .where("booking_id", "=", "b1")
      .orderBy("position")
      .execute();
    await updateStage(t.db, "b1", deposit.id, { amount: "2,000" });
    const id = await createProposal(t.db, e, "b1", OWNER, NOW);
    const planned = TOTAL - 171_000 + 200_000;
    const message = PROPOSAL_MESSAGES.planMismatch(planned, TOTAL);
    expect((await bookingProposals(t.db, e, "b1", NOW))[0].problem).toBe(message);
    await expect(sendProposal(t.db, e, id, OWNER, NOW)).rejects.toThrow(message);
    expect((await row(t, id)).status).toBe("draft");
    expect(await kinds(t, id)).toEqual(["created"]);
    expect(await outbox(t)).toEqual([]);
    await t.close();
  });
});

describe("sending and viewing", () => {
  it("sends the draft: status sent, the trail says so, the client gets the link; then it cannot be edited", async () => {
    const t = await freshDb();
    await withSealKey(t.db);
    const e = envOf(t);
    await booking(t);
    const id = await createProposal(t.db, e, "b1", OWNER, NOW);
    const fields = formOf(await row(t, id));
    const res = await sendProposal(t.db, e, id, OWNER, NOW);
    expect(res.to).toBe("ada@client.example");
    const r = await row(t, id);
    expect(r).toMatchObject({ status: "sent", sent_at: NOW.toISOString() });
    expect(await kinds(t, id)).toEqual(["created", "sent"]);
    const mails = await outbox(t);
    expect(mails).toHaveLength(1);
    expect(mails[0].to_email).toBe("ada@client.example");
    expect(mails[0].subject).toContain("Your proposal from");
    expect(mails[0].text_body).toContain(`${e.APP_URL}/proposal/${r.token}`);
    await expect(updateProposal(t.db, e, id, { ...fields, title: "Changed" }, NOW)).rejects.toThrow(
      PROPOSAL_MESSAGES.notDraft,
    );
    await expect(sendProposal(t.db, e, id, OWNER, NOW)).rejects.toThrow(PROPOSAL_MESSAGES.notDraft);
    expect(contentOf(await row(t, id)).title).toBe(contentOf(r).title);
    expect(await outbox(t)).toHaveLength(1);
    await t.close();
  });

  it("records a view once per browser in 30 minutes; an unknown token or a draft's is not found", async () => {
    const { t, e, id, token } = await sentCase();
    const page = await proposalPage(t.db, e, token, CLIENT, later(5));
    expect(page).toMatchObject({ state: "open", reference: "P-0001", total: TOTAL, consentText: CONSENT_TEXT });
    expect((await row(t, id)).viewed_at).toBe(later(5).toISOString());
    await proposalPage(t.db, e, token, CLIENT, later(20));
    expect(await kinds(t, id)).toEqual(["created", "sent", "viewed"]);
    await proposalPage(t.db, e, token, { ...CLIENT, ip: "198.51.100.4" }, later(21));
    const viewed = (await events(t, id)).filter((v) => v.kind === "viewed");
    expect(viewed.map((v) => [v.ip, v.user_agent, v.email])).toEqual([
      [CLIENT.ip, CLIENT.userAgent, "b1@client.example"],
      ["198.51.100.4", CLIENT.userAgent, "b1@client.example"],
    ]);
    expect((await row(t, id)).viewed_at).toBe(later(5).toISOString());

    expect(await proposalPage(t.db, e, "no-such-token-anywhere-0123456789", CLIENT, NOW)).toBeNull();
    await booking(t, "b2", "grace@client.example");
    const draft = await row(t, await createProposal(t.db, e, "b2", OWNER, NOW));
    expect(await proposalPage(t.db, e, draft.token, CLIENT, NOW)).toBeNull();
    await expect(sign(t, draft.token)).rejects.toMatchObject({ kind: "not-found" });
    expect(await kinds(t, draft.id)).toEqual(["created"]);
    await t.close();
  });
});

describe("signing", () => {
  it("asks for a name and the consent; then seals a PDF that pdfsig verifies and records who signed", async () => {
    const { t, e, id, token } = await sentCase();
    for (const [input, message] of [
      [{ name: " A ", consent: "on" }, PROPOSAL_MESSAGES.signerName],
      [{ name: "", consent: "on" }, PROPOSAL_MESSAGES.signerName],
      [{ name: "Augusta Ada King", consent: undefined }, PROPOSAL_MESSAGES.consent],
      [{ name: "Augusta Ada King", consent: "off" }, PROPOSAL_MESSAGES.consent],
    ] as const) {
      const attempt = signProposal(t.db, e, token, input, CLIENT, later(60));
      await expect(attempt).rejects.toBeInstanceOf(DomainError);
      await expect(signProposal(t.db, e, token, input, CLIENT, later(60))).rejects.toThrow(message);
    }
    expect((await row(t, id)).status).toBe("sent");

    expect(await sign(t, token, "  Augusta   Ada King ")).toMatchObject({ signed: true });
    const r = await row(t, id);
    expect(r).toMatchObject({ status: "signed", signer_name: "Augusta Ada King", signed_at: later(60).toISOString() });
    expect(r.document_sha256).toMatch(/^[0-9a-f]{64}$/);
    const file = storedPdf(t, r.pdf_path!);
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");

    const signed = (await events(t, id)).filter((v) => v.kind === "signed");
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatchObject({
      ip: CLIENT.ip,
      user_agent: CLIENT.userAgent,
      email: "b1@client.example",
      at: later(60).toISOString(),
    });
    expect(signed[0].detail).toContain(CONSENT_TEXT);
    expect(signed[0].detail).toContain(r.document_sha256);
    expect(signed[0].detail).toContain("Augusta Ada King");

    // The seal holds; one byte changed and it does not.
    expect(pdfsig(file)).toContain("Signature is Valid.");
    const broken = pdfsig(tampered(file));
    expect(broken).not.toContain("Signature is Valid.");
    expect(broken).toContain("Digest Mismatch");
    // What a person reads: the signer and, on the certificate page, the document's hash.
    const text = pdftotext(file);
    expect(text).toContain("Augusta Ada King");
    expect(squeezed(text)).toContain(r.document_sha256);
    await t.close();
  });

  it("with card payments on, asks for the deposit at once: the signed PDF attached, an invoice, the page's pay link", async () => {
    const { t, e, id, token } = await sentCase();
    const title = contentOf(await row(t, id)).title;
    const outcome = await sign(t, token);
    const [first] = await t.db
      .selectFrom("booking_stages")
      .selectAll()
      .where("booking_id", "=", "b1")
      .orderBy("position")
      .execute();
    expect(first).toMatchObject({ position: 0, label: "Deposit", amount: 171_000 });
    expect(first.requested_at).toBe(later(60).toISOString());
    expect(first.pay_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(outcome).toEqual({ signed: true, depositPath: `/pay/${first.pay_token}` });

    const mails = await outbox(t);
    const client = mails.filter(
      (m) => m.to_email === "b1@client.example" && m.subject === "Signed, here is your deposit",
    );
    expect(client).toHaveLength(1);
    expect(client[0].text_body).toContain(`${e.APP_URL}/pay/${first.pay_token}`);
    const [pdf] = attachmentsOf(client[0]);
    expect(pdf.filename).toMatch(/\.pdf$/);
    expect(pdf).toMatchObject({ contentType: "application/pdf", encoding: "base64" });
    expect(Buffer.from(pdf.content, "base64").subarray(0, 4).toString()).toBe("%PDF");
    const studio = mails.filter((m) => m.to_email === e.STUDIO_EMAIL && m.subject.startsWith("Signed: "));
    expect(studio).toHaveLength(1);
    expect(studio[0].subject).toBe("Signed: Lovelace Labs signed P-0001");
    expect(attachmentsOf(studio[0])[0].filename).toMatch(/\.pdf$/);
    expect(mails.some((m) => m.subject === `Signed: ${title}`)).toBe(false);

    const invoices = await t.db.selectFrom("invoices").selectAll().execute();
    expect(invoices).toEqual([
      expect.objectContaining({ number: "INV-2026-0001", stage_id: first.id, booking_id: "b1", total: 171_000 }),
    ]);

    const page = (await proposalPage(t.db, e, token, CLIENT, later(61)))!;
    expect(page.state).toBe("signed");
    expect(page.deposit).toEqual({
      label: "Deposit",
      amount: 171_000,
      state: "requested",
      payPath: `/pay/${first.pay_token}`,
    });
    await t.close();
  });

  it("without Stripe, still signs, and the client's copy says the studio will send the first payment", async () => {
    const t = await freshDb();
    await withSealKey(t.db);
    const e = envOf(t, { stripe: false });
    const { id, token } = await sentProposal(t, e);
    const title = contentOf(await row(t, id)).title;
    expect(await sign(t, token, "Augusta Ada King", e)).toEqual({ signed: true, depositPath: null });
    expect((await row(t, id)).status).toBe("signed");
    const client = (await outbox(t)).filter(
      (m) => m.to_email === "b1@client.example" && m.subject.startsWith("Signed"),
    );
    expect(client.map((m) => m.subject)).toEqual([`Signed: ${title}`]);
    expect(attachmentsOf(client[0])).toHaveLength(1);
    expect(await t.db.selectFrom("invoices").selectAll().execute()).toEqual([]);
    expect((await proposalPage(t.db, e, token, CLIENT, later(61)))!.deposit).toMatchObject({
      state: "not requested",
      payPath: null,
    });
    await t.close();
  });

  it("two signatures at once: one is recorded, one document kept, the other told it is already signed", async () => {
    const { t, e, id, token } = await sentCase();
    const outcomes = await Promise.all([sign(t, token, "Augusta Ada King"), sign(t, token, "Ada Lovelace")]);
    expect(outcomes.filter((o) => o.signed)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.signed)).toEqual([{ signed: false, already: true }]);
    expect((await kinds(t, id)).filter((k) => k === "signed")).toHaveLength(1);
    const r = await row(t, id);
    const dir = path.dirname(storedPdf(t, r.pdf_path!));
    expect(fs.readdirSync(dir)).toEqual([path.basename(r.pdf_path!)]);
    // Only one deposit request went out.
    expect((await outbox(t)).filter((m) => m.subject === "Signed, here is your deposit")).toHaveLength(1);

    // Later, a third time: already signed, nothing more recorded.
    const trail = await events(t, id);
    expect(await sign(t, token, "Someone Else", e, later(120))).toEqual({ signed: false, already: true });
    expect(await events(t, id)).toEqual(trail);
    expect((await row(t, id)).signer_name).toBe(r.signer_name);
    await t.close();
  });
});

describe("declining, expiring, extending and revising", () => {
  it("a decline with a reason tells the studio, and the proposal can no longer be signed", async () => {
    const { t, e, id, token } = await sentCase();
    await declineProposal(t.db, e, token, "  The budget moved to next year.  ", CLIENT, later(30));
    expect(await row(t, id)).toMatchObject({
      status: "declined",
      declined_at: later(30).toISOString(),
      decline_reason: "The budget moved to next year.",
    });
    const declined = (await events(t, id)).filter((v) => v.kind === "declined");
    expect(declined).toEqual([
      expect.objectContaining({ detail: "The budget moved to next year.", ip: CLIENT.ip, email: "b1@client.example" }),
    ]);
    const notice = (await outbox(t)).filter((m) => m.to_email === e.STUDIO_EMAIL);
    expect(notice.map((m) => m.subject)).toEqual(["Declined: Lovelace Labs declined P-0001"]);
    expect(notice[0].text_body).toContain("The budget moved to next year.");

    const attempt = sign(t, token);
    await expect(attempt).rejects.toBeInstanceOf(ProposalClosed);
    await expect(sign(t, token)).rejects.toThrow(PROPOSAL_MESSAGES.declined);
    expect((await row(t, id)).status).toBe("declined");
    expect((await proposalPage(t.db, e, token, CLIENT, later(31)))!.state).toBe("declined");
    await t.close();
  });

  it("expires after its day (recorded once), and an extension makes it signable again", async () => {
    const { t, e, id, token } = await sentCase();
    const r = await row(t, id);
    expect(r.expires_on).toBe("2026-12-11");
    // The last day is still open (23:00 in New York on December 11 is 04:00 UTC on the 12th).
    expect((await proposalPage(t.db, e, token, CLIENT, new Date("2026-12-12T04:00:00Z")))!.state).toBe("open");
    const late = new Date("2026-12-12T06:00:00Z"); // 01:00 on December 12 in New York
    const message = PROPOSAL_MESSAGES.expired(formatCalendarDate("2026-12-11"));
    for (let i = 0; i < 2; i++) {
      const attempt = sign(t, token, "Augusta Ada King", e, late);
      await expect(attempt).rejects.toBeInstanceOf(ProposalClosed);
      await expect(attempt).rejects.toThrow(message);
    }
    expect((await proposalPage(t.db, e, token, CLIENT, late))!.state).toBe("expired");
    expect((await kinds(t, id)).filter((k) => k === "expired")).toHaveLength(1);
    expect((await row(t, id)).status).toBe("sent");
    expect((await bookingProposals(t.db, e, "b1", late))[0].status).toBe("expired");

    await extendProposal(t.db, e, id, "2026-12-31", OWNER, late);
    expect((await row(t, id)).expires_on).toBe("2026-12-31");
    expect((await events(t, id)).filter((v) => v.kind === "extended")).toEqual([
      expect.objectContaining({ email: OWNER, detail: "Open until 2026-12-31" }),
    ]);
    expect((await proposalPage(t.db, e, token, CLIENT, late))!.state).toBe("open");
    expect(await sign(t, token, "Augusta Ada King", e, late)).toMatchObject({ signed: true });
    expect((await row(t, id)).status).toBe("signed");
    await t.close();
  });

  it("a revision is version 2 of the same number; sending it replaces version 1, whose link points to it", async () => {
    const t = await freshDb();
    await withSealKey(t.db);
    const e = envOf(t);
    const { id: v1, token: t1 } = await sentProposal(t, e);
    const v2 = await reviseProposal(t.db, e, v1, OWNER, later(10));
    expect(v2).not.toBe(v1);
    expect(await reviseProposal(t.db, e, v1, OWNER, later(11))).toBe(v2);
    const draft = await row(t, v2);
    expect(draft).toMatchObject({ number: 1, version: 2, status: "draft", content: (await row(t, v1)).content });
    // Until it is sent, version 1 stays open.
    expect((await proposalPage(t.db, e, t1, CLIENT, later(12)))!.state).toBe("open");

    await sendProposal(t.db, e, v2, OWNER, later(20));
    expect(await row(t, v1)).toMatchObject({ status: "replaced", replaced_by: v2 });
    expect(await kinds(t, v1)).toContain("replaced");
    const revised = (await outbox(t)).filter((m) => m.subject.startsWith("Revised proposal"));
    expect(revised).toHaveLength(1);
    expect(revised[0].text_body).toContain(`/proposal/${draft.token}`);

    const old = (await proposalPage(t.db, e, t1, CLIENT, later(30)))!;
    expect(old).toMatchObject({ state: "replaced", latestPath: `/proposal/${draft.token}` });
    const attempt = sign(t, t1);
    await expect(attempt).rejects.toBeInstanceOf(ProposalClosed);
    await expect(attempt).rejects.toThrow(PROPOSAL_MESSAGES.replaced);
    expect((await proposalPage(t.db, e, draft.token, CLIENT, later(31)))!).toMatchObject({
      state: "open",
      reference: "P-0001 v2",
    });

    expect(await sign(t, draft.token)).toMatchObject({ signed: true });
    const refused = reviseProposal(t.db, e, v2, OWNER, later(90));
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    await expect(refused).rejects.toThrow("A signed proposal never changes.");
    expect(await t.db.selectFrom("proposals").select("id").execute()).toHaveLength(2);
    await t.close();
  });

  it("a revision drafted before the client signed is not sent once they have: one signed agreement per proposal", async () => {
    const t = await freshDb();
    await withSealKey(t.db);
    const e = envOf(t);
    const { id: v1, token: t1 } = await sentProposal(t, e);
    const v2 = await reviseProposal(t.db, e, v1, OWNER, later(10));
    expect(await sign(t, t1)).toMatchObject({ signed: true });
    // Sending version 2 now would ask the client to sign the same proposal a second time.
    await expect(sendProposal(t.db, e, v2, OWNER, later(90))).rejects.toBeInstanceOf(DomainError);
    expect((await row(t, v2)).status).toBe("draft");
    expect((await outbox(t)).filter((m) => m.subject.startsWith("Revised proposal"))).toEqual([]);
    await t.close();
  });
});

describe("countersigning", () => {
  it("when Settings asks for it: only after the client signed, once, sealed again with both names", async () => {
    const t = await freshDb();
    await withSealKey(t.db);
    const e = envOf(t);
    await saveSection(t.db, "contract", { ...sampleContract, countersign: true }, OWNER);
    const { id, token } = await sentProposal(t, e);
    expect((await row(t, id)).countersign).toBe(1);
    const owner = { email: OWNER, ip: "192.0.2.10", userAgent: "Console" };
    await expect(countersignProposal(t.db, e, id, "Jane Pine", owner, later(30))).rejects.toThrow(
      PROPOSAL_MESSAGES.notSignedYet,
    );

    await sign(t, token);
    const clientSigned = await row(t, id);
    const notice = (await outbox(t)).find((m) => m.subject === "Signed: Lovelace Labs signed P-0001")!;
    expect(notice.text_body).toContain("Countersign it in the console");

    await countersignProposal(t.db, e, id, "Jane Pine", owner, later(90));
    const r = await row(t, id);
    expect(r).toMatchObject({ countersigned_at: later(90).toISOString(), countersigner_name: "Jane Pine" });
    expect(r.pdf_path).not.toBe(clientSigned.pdf_path);
    // The client's signed hash stays what the trail recorded.
    expect(r.document_sha256).toBe(clientSigned.document_sha256);
    const file = storedPdf(t, r.pdf_path!);
    expect(pdfsig(file)).toContain("Signature is Valid.");
    const text = pdftotext(file);
    expect(text).toContain("Augusta Ada King");
    expect(text).toContain("Jane Pine");
    expect((await events(t, id)).filter((v) => v.kind === "countersigned")).toEqual([
      expect.objectContaining({ email: OWNER, ip: "192.0.2.10" }),
    ]);
    const copies = (await outbox(t)).filter((m) => m.subject.startsWith("Countersigned:"));
    expect(copies.map((m) => m.to_email).sort()).toEqual(["b1@client.example", e.STUDIO_EMAIL].sort());

    await expect(countersignProposal(t.db, e, id, "Jane Pine", owner, later(100))).rejects.toThrow(
      PROPOSAL_MESSAGES.alreadyCountersigned,
    );
    expect((await row(t, id)).pdf_path).toBe(r.pdf_path);
    await t.close();
  });

  it("is refused for a proposal drafted while countersigning was off", async () => {
    const { t, e, id, token } = await sentCase();
    await sign(t, token, "Augusta Ada King", envOf(t, { stripe: false }));
    await expect(
      countersignProposal(t.db, e, id, "Jane Pine", { email: OWNER, ip: null, userAgent: null }, later(90)),
    ).rejects.toThrow(PROPOSAL_MESSAGES.countersignOff);
    await t.close();
  });
});

describe("the audit trail and invoices are kept", () => {
  it("refuses to change or delete a trail event or an invoice; deleting the booking takes its proposals and trails", async () => {
    const { t, id, token } = await sentCase();
    await sign(t, token);
    const trail = await events(t, id);
    expect(trail.map((v) => v.kind)).toEqual(["created", "sent", "signed"]);
    await expect(sql`update proposal_events set detail = 'x'`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from proposal_events`.execute(t.db)).rejects.toThrow(/append-only/);
    expect(await events(t, id)).toEqual(trail);

    const invoices = await t.db.selectFrom("invoices").selectAll().execute();
    expect(invoices).toHaveLength(1);
    await expect(sql`delete from invoices`.execute(t.db)).rejects.toThrow(/never deleted/);

    await t.db.deleteFrom("bookings").where("id", "=", "b1").execute();
    expect(await t.db.selectFrom("proposals").selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom("proposal_events").selectAll().execute()).toEqual([]);
    // The invoice stays, its snapshot intact, no longer pointing at the booking.
    const [kept] = await t.db.selectFrom("invoices").selectAll().execute();
    expect(kept).toMatchObject({
      number: invoices[0].number,
      booking_id: null,
      stage_id: null,
      client: invoices[0].client,
    });
    await t.close();
  });
});
