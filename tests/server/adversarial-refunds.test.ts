/**
 * Refunds and disputes against the running production build (issue 16, finding 2): whatever the
 * order of Stripe's events and the buyer's visits, a refunded or disputed checkout session never
 * grants access again, and links signed before the refund stop working. Also finding 8's money
 * bounds: checkout refuses a template priced 0 and admins cannot price a template above $100,000.
 *
 * The real Stripe SDK inside the server talks to the local fake (tests/helpers/fakes.mjs) through
 * STRIPE_API_BASE; webhooks are signed with the SDK's test helper, as Stripe signs them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, queryDb, sessionCookie, startServer, type RunningServer } from "../helpers/server";

const WEBHOOK_SECRET = "whsec_refunds_test";
const stripe = new Stripe("sk_test_refunds");

let server: RunningServer;
let fakes: ChildProcess;
let fakesUrl: string;

beforeAll(async () => {
  const port = await freePort();
  fakesUrl = `http://127.0.0.1:${port}`;
  fakes = spawn(process.execPath, [path.resolve(import.meta.dirname, "../helpers/fakes.mjs")], {
    env: { ...process.env, FAKES_PORT: String(port) },
    stdio: "ignore",
  });
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${fakesUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  server = await startServer({
    env: { STRIPE_SECRET_KEY: "sk_test_refunds", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fakesUrl },
  });
});

afterAll(async () => {
  await server?.stop();
  fakes?.kill("SIGTERM");
});

type Session = {
  id: string;
  payment_intent: string;
  payment_status: string;
  metadata: Record<string, string>;
} & Record<string, unknown>;
type PurchaseRow = {
  id: string;
  status: string;
  stripe_session_id: string | null;
  license_key: string;
  amount_paid: number;
};

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${++n}`;

async function buyer() {
  const email = `${unique("buyer")}@example.com`;
  const cookie = await sessionCookie(server.dataDir, email);
  const userId = queryDb<{ id: string }>(server.dataDir, "select id from users where email = ?", email)[0].id;
  return { email, cookie, userId };
}

function template(slug: string) {
  return queryDb<{ id: string; slug: string; price: number; sales_count: number }>(
    server.dataDir,
    "select id, slug, price, sales_count from templates where slug = ?",
    slug,
  )[0];
}

function purchases(userId: string, templateId: string) {
  return queryDb<PurchaseRow>(
    server.dataDir,
    "select id, status, stripe_session_id, license_key, amount_paid from purchases where user_id = ? and template_id = ?",
    userId,
    templateId,
  );
}

async function trpc(cookie: string, procedure: string, input: unknown) {
  const res = await fetch(`${server.url}/api/trpc/${procedure}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { "Content-Type": "application/json", Origin: server.url, Cookie: cookie },
  });
  const json = (await res.json()) as {
    result?: { data: Record<string, unknown> };
    error?: { message: string; data: { code: string; zodError: { fieldErrors: Record<string, string[]> } | null } };
  };
  return { status: res.status, json };
}

async function fakeSessions(): Promise<Session[]> {
  return ((await (await fetch(`${fakesUrl}/v1/checkout/sessions`)).json()) as { data: Session[] }).data;
}

/** Checkout through the product, then the buyer pays on the (fake) hosted page. */
async function checkoutAndPay(cookie: string, templateId: string): Promise<Session> {
  const r = await trpc(cookie, "checkout.create", { templateId });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const id = String(r.json.result!.data.url).split("/pay/")[1];
  const paid = await fetch(`${fakesUrl}/pay/${id}/complete`, { method: "POST" });
  return (await paid.json()) as Session;
}

async function webhook(type: string, object: object) {
  const payload = JSON.stringify({ id: unique("evt"), object: "event", type, data: { object } });
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const res = await fetch(`${server.url}/webhooks/stripe`, {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.text();
}

const refund = (s: Session) =>
  webhook("charge.refunded", {
    id: unique("ch"),
    object: "charge",
    payment_intent: s.payment_intent,
    amount: 5900,
    amount_refunded: 5900,
    refunded: true,
  });
const dispute = (s: Session) =>
  webhook("charge.dispute.created", {
    id: unique("dp"),
    object: "dispute",
    charge: unique("ch"),
    payment_intent: s.payment_intent,
    reason: "fraudulent",
    status: "needs_response",
  });

/** The template page as the buyer sees it (the success URL when `sessionId` is given). */
async function visit(cookie: string, slug: string, sessionId?: string): Promise<string> {
  const res = await fetch(`${server.url}/templates/${slug}${sessionId ? `?session_id=${sessionId}` : ""}`, {
    headers: { Cookie: cookie },
  });
  expect(res.status).toBe(200);
  return res.text();
}

async function downloadLink(cookie: string, templateId: string): Promise<string> {
  const r = await trpc(cookie, "downloads.create", { templateId });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return `${server.url}${String(r.json.result!.data.url)}`;
}

/** A buyer who paid and was let in on the success URL (the webhook not yet arrived). */
async function owner(slug: string) {
  const b = await buyer();
  const tpl = template(slug);
  const session = await checkoutAndPay(b.cookie, tpl.id);
  expect(await visit(b.cookie, slug, session.id)).toContain("You own this template");
  expect(purchases(b.userId, tpl.id)).toEqual([
    expect.objectContaining({ status: "active", stripe_session_id: session.id }),
  ]);
  return { ...b, tpl, session };
}

function expectNoAccess(html: string) {
  expect(html).not.toContain("You own this template");
  expect(html).toContain(">Purchase<");
}

describe("a refund is terminal for its checkout session (issue 16.2)", () => {
  it("refund, then the success URL again: stays refunded, the page says so, downloads refused", async () => {
    const o = await owner("marginalia");
    await refund(o.session);
    expect(purchases(o.userId, o.tpl.id)).toEqual([expect.objectContaining({ status: "refunded" })]);
    const html = await visit(o.cookie, "marginalia", o.session.id);
    expectNoAccess(html);
    expect(html).toContain("was refunded");
    expect(purchases(o.userId, o.tpl.id)).toEqual([expect.objectContaining({ status: "refunded" })]);
    const r = await trpc(o.cookie, "downloads.create", { templateId: o.tpl.id });
    expect(r.status).toBe(403);
  });

  it("refund, then checkout.session.completed and async_payment_succeeded: still refunded, no second receipt", async () => {
    const o = await owner("spark");
    await refund(o.session);
    await webhook("checkout.session.completed", o.session);
    await webhook("checkout.session.async_payment_succeeded", o.session);
    expect(purchases(o.userId, o.tpl.id)).toEqual([expect.objectContaining({ status: "refunded" })]);
    expectNoAccess(await visit(o.cookie, "spark", o.session.id));
    expect(
      queryDb(
        server.dataDir,
        "select id from email_outbox where to_email = ? and subject like 'Your receipt%'",
        o.email,
      ),
    ).toHaveLength(1);
  });

  it("a refund that arrives before checkout.session.completed is remembered: no purchase ever", async () => {
    const b = await buyer();
    const tpl = template("atelier");
    const session = await checkoutAndPay(b.cookie, tpl.id);
    await refund(session);
    expect(purchases(b.userId, tpl.id)).toEqual([]);
    expect(
      queryDb(
        server.dataDir,
        "select reason from stripe_revocations where stripe_id in (?, ?)",
        session.id,
        session.payment_intent,
      ),
    ).toEqual([{ reason: "refunded" }, { reason: "refunded" }]);
    await webhook("checkout.session.completed", session);
    await webhook("checkout.session.async_payment_succeeded", session);
    const html = await visit(b.cookie, "atelier", session.id);
    expectNoAccess(html);
    expect(html).toContain("was refunded");
    expect(purchases(b.userId, tpl.id)).toEqual([]);
    expect(queryDb(server.dataDir, "select id from email_outbox where to_email = ?", b.email)).toEqual([]);
  });

  it("a dispute revokes access the same way, whatever comes after", async () => {
    const o = await owner("launchpad");
    const link = await downloadLink(o.cookie, o.tpl.id);
    await dispute(o.session);
    expect(purchases(o.userId, o.tpl.id)).toEqual([expect.objectContaining({ status: "refunded" })]);
    await webhook("checkout.session.completed", o.session);
    const html = await visit(o.cookie, "launchpad", o.session.id);
    expectNoAccess(html);
    expect(html).toContain("was disputed");
    expect(purchases(o.userId, o.tpl.id)).toEqual([expect.objectContaining({ status: "refunded" })]);
    const res = await fetch(link);
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/no longer available.*disputed/);
  });

  it("a download link signed before the refund stops working once access is revoked", async () => {
    const o = await owner("ledger");
    const link = await downloadLink(o.cookie, o.tpl.id);
    const before = await fetch(link);
    expect(before.status).toBe(200);
    expect(
      Buffer.from(await before.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe("PK");
    await refund(o.session);
    for (const method of ["GET", "HEAD"]) {
      const res = await fetch(link, { method });
      expect(res.status).toBe(403);
      if (method === "GET") expect(await res.text()).toMatch(/no longer available.*refunded/);
    }
    // Nor can the link be pointed at the purchase of someone who still owns the template.
    const other = await owner("ledger");
    const theirs = new URL(await downloadLink(other.cookie, other.tpl.id));
    const forged = new URL(link);
    forged.searchParams.set("purchase", theirs.searchParams.get("purchase")!);
    expect((await fetch(forged)).status).toBe(403);
    expect((await fetch(theirs)).status).toBe(200);
  });

  it("a new checkout session after a refund grants access again; the refunded session never does", async () => {
    const o = await owner("maison");
    await refund(o.session);
    const again = await checkoutAndPay(o.cookie, o.tpl.id);
    await webhook("checkout.session.completed", again);
    const rows = purchases(o.userId, o.tpl.id);
    expect(rows).toEqual([expect.objectContaining({ status: "active", stripe_session_id: again.id })]);
    expect(await visit(o.cookie, "maison", again.id)).toContain("You own this template");
    expect((await fetch(await downloadLink(o.cookie, o.tpl.id))).status).toBe(200);
    expect(
      queryDb(
        server.dataDir,
        "select id from email_outbox where to_email = ? and subject like 'Your receipt%'",
        o.email,
      ),
    ).toHaveLength(2);
    // A late refund of the old session touches nothing of the new purchase.
    await refund(o.session);
    expect(purchases(o.userId, o.tpl.id)).toEqual([
      expect.objectContaining({ status: "active", stripe_session_id: again.id }),
    ]);
    // The new session can be refunded in its turn.
    await refund(again);
    expect(purchases(o.userId, o.tpl.id)).toEqual([
      expect.objectContaining({ status: "refunded", stripe_session_id: again.id }),
    ]);
    expectNoAccess(await visit(o.cookie, "maison", again.id));
  });

  it("the server still answers after all of it", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output()).not.toMatch(/processing failed|TypeError|ReferenceError/);
  });
});

describe("prices have bounds (issue 16.8)", () => {
  it("checkout refuses a template priced 0 with a clear message and creates no Stripe session", async () => {
    const admin = await sessionCookie(server.dataDir, `${unique("admin")}@example.com`, "admin");
    const created = await trpc(admin, "admin.templates.create", {
      name: unique("Freebie"),
      tagline: "Nothing to pay",
      description: "A template without a price.",
      category: "blog",
      price: "0",
      features: "One page",
      included: "Source files",
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = String(created.json.result!.data.id);
    const b = await buyer();
    const sessionsBefore = (await fakeSessions()).length;
    const r = await trpc(b.cookie, "checkout.create", { templateId: id });
    expect(r.status).toBe(400);
    expect(r.json.error!.message).toBe("This template is not for sale yet. Please check back soon.");
    expect((await fakeSessions()).length).toBe(sessionsBefore);
    expect(queryDb(server.dataDir, "select id from purchases where template_id = ?", id)).toEqual([]);
  });

  it("admins cannot price a template above $100,000 (create or update)", async () => {
    const admin = await sessionCookie(server.dataDir, `${unique("admin")}@example.com`, "admin");
    const name = unique("Pricey");
    const form = { name, tagline: "t", description: "d", category: "saas", features: "f", included: "i" };
    for (const price of ["100000.01", "99999999999"]) {
      const r = await trpc(admin, "admin.templates.create", { ...form, price });
      expect(r.status).toBe(400);
      expect(r.json.error!.data.zodError!.fieldErrors.price).toEqual(["Price must be at most $100,000"]);
    }
    // Decimal dollars only (issue 40.5): `1e9` and `0x10` are not prices.
    for (const price of ["1e9", "0x10"]) {
      const r = await trpc(admin, "admin.templates.create", { ...form, price });
      expect(r.status).toBe(400);
      expect(r.json.error!.data.zodError!.fieldErrors.price).toEqual(["Price must be a number of at least 0"]);
    }
    const r = await trpc(admin, "admin.templates.create", { ...form, price: "100000", originalPrice: "100000.50" });
    expect(r.status).toBe(400);
    expect(r.json.error!.data.zodError!.fieldErrors.originalPrice).toEqual(["Original Price must be at most $100,000"]);
    expect(queryDb(server.dataDir, "select id from templates where name = ?", name)).toEqual([]);
    const ok = await trpc(admin, "admin.templates.create", { ...form, price: "100000" });
    expect(ok.status).toBe(200);
    const id = String(ok.json.result!.data.id);
    expect(queryDb(server.dataDir, "select price from templates where id = ?", id)).toEqual([{ price: 10_000_000 }]);
    const upd = await trpc(admin, "admin.templates.update", { id, data: { ...form, price: "250000" } });
    expect(upd.status).toBe(400);
    expect(queryDb(server.dataDir, "select price from templates where id = ?", id)).toEqual([{ price: 10_000_000 }]);
  });
});
