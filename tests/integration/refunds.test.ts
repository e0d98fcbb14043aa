/**
 * Refunds and disputes are terminal for their checkout session (issue 16.2, decision 009), and
 * template prices have bounds (issue 16.8). Real SQLite per test; Stripe is a small local server
 * at the HTTP boundary (STRIPE_API_BASE), reached through the real SDK.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUser, rolesOf } from "../../server/auth/users.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { env } from "../../server/env.server";
import { NOT_FOR_SALE } from "../../server/shop/checkout.server";
import { checkDownloadLink, createDownload, downloadUrl, DOWNLOAD_REVOKED } from "../../server/shop/downloads.server";
import { fulfilCheckout, purchaseFor } from "../../server/shop/purchases.server";
import { revokeCheckout } from "../../server/payments/refunds.server";
import { handleStripeWebhook } from "../../server/http/stripe-webhook.server";
import { createCaller } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";
import { MAX_TEMPLATE_PRICE_CENTS, templateFormSchema } from "#domain/template-form";
import { freshDb, type TestDb } from "../helpers/db";

// A Stripe-compatible subset: checkout sessions by payment intent, charges by id, session creation.
const stripeCalls: string[] = [];
const charges = new Map<string, { id: string; object: "charge"; payment_intent: string }>();
const sessionsByPi = new Map<string, string[]>();
const fake = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  stripeCalls.push(`${req.method} ${url.pathname}`);
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (req.method === "GET" && url.pathname === "/v1/checkout/sessions") {
    const ids = sessionsByPi.get(url.searchParams.get("payment_intent") ?? "") ?? [];
    return json(200, {
      object: "list",
      has_more: false,
      url: "/v1/checkout/sessions",
      data: ids.map((id) => ({ id, object: "checkout.session" })),
    });
  }
  // Refunds made in the Stripe Dashboard are listed for the ledger (issue 31); these tests make none.
  if (req.method === "GET" && url.pathname === "/v1/refunds")
    return json(200, { object: "list", has_more: false, url: "/v1/refunds", data: [] });
  const charge = /^\/v1\/charges\/([^/]+)$/.exec(url.pathname);
  if (req.method === "GET" && charge && charges.has(charge[1])) return json(200, charges.get(charge[1]));
  json(404, { error: { type: "invalid_request_error", message: "not found" } });
});

const WEBHOOK_SECRET = "whsec_integration";
beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  // Read once per process by env(); this file runs in its own process.
  process.env.STRIPE_SECRET_KEY = "sk_test_integration";
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.STRIPE_API_BASE = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  expect(env().STRIPE_API_BASE).toBe(process.env.STRIPE_API_BASE);
});
afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

async function setup() {
  const t = await freshDb();
  await seedDemoCatalogue(t.db, t.dataDir);
  const u = await ensureUser(t.db, `buyer-${crypto.randomUUID()}@example.com`);
  const tpl = await t.db
    .selectFrom("templates")
    .select(["id", "sales_count"])
    .where("slug", "=", "atelier")
    .executeTakeFirstOrThrow();
  return { t, userId: u.id, tpl };
}

const salesOf = async (t: TestDb, id: string) =>
  (await t.db.selectFrom("templates").select("sales_count").where("id", "=", id).executeTakeFirstOrThrow()).sales_count;
const rowsOf = (t: TestDb, userId: string) =>
  t.db
    .selectFrom("purchases")
    .select(["id", "status", "stripe_session_id", "stripe_payment_intent", "license_key"])
    .where("user_id", "=", userId)
    .execute();
const paid = (userId: string, templateId: string, n: number) => ({
  stripeSessionId: `cs_${n}_${userId}`,
  paymentIntent: `pi_${n}_${userId}`,
  userId,
  templateId,
  amountPaid: 7900,
});
const revocation = (
  reason: "refunded" | "disputed",
  p: { stripeSessionId: string; paymentIntent: string },
  sessions = true,
) => ({
  reason,
  stripeEventId: `evt_${crypto.randomUUID()}`,
  paymentIntent: p.paymentIntent,
  sessionIds: sessions ? [p.stripeSessionId] : [],
});

describe("purchases: refunded or disputed is terminal for the checkout session", () => {
  it("a revocation before the purchase exists is remembered: the session never creates one", async () => {
    const { t, userId, tpl } = await setup();
    const p = paid(userId, tpl.id, 1);
    expect(await revokeCheckout(t.db, revocation("refunded", p))).toBe(0);
    expect(await fulfilCheckout(t.db, p)).toEqual({ outcome: "revoked", reason: "refunded" });
    // Known by its payment intent alone (Stripe could not be asked for the session) is enough.
    const q = paid(userId, tpl.id, 2);
    await revokeCheckout(t.db, revocation("disputed", q, false));
    expect(await fulfilCheckout(t.db, q)).toEqual({ outcome: "revoked", reason: "disputed" });
    expect(await rowsOf(t, userId)).toEqual([]);
    expect(await salesOf(t, tpl.id)).toBe(tpl.sales_count);
    await t.close();
  });

  it("revoking by payment intent ends access and the sale; replays of the session never revive it", async () => {
    const { t, userId, tpl } = await setup();
    const p = paid(userId, tpl.id, 1);
    expect((await fulfilCheckout(t.db, p)).outcome).toBe("created");
    expect(await salesOf(t, tpl.id)).toBe(tpl.sales_count + 1);
    expect(await revokeCheckout(t.db, revocation("refunded", p, false))).toBe(1);
    expect(await revokeCheckout(t.db, revocation("disputed", p))).toBe(0);
    for (let i = 0; i < 2; i++)
      expect(await fulfilCheckout(t.db, p)).toEqual({ outcome: "revoked", reason: "refunded" });
    expect(await rowsOf(t, userId)).toEqual([
      expect.objectContaining({
        status: "refunded",
        stripe_session_id: p.stripeSessionId,
        stripe_payment_intent: p.paymentIntent,
      }),
    ]);
    expect(await purchaseFor(t.db, userId, tpl.id)).toBeNull();
    expect(await salesOf(t, tpl.id)).toBe(tpl.sales_count);
    await t.close();
  });

  it("a purchase refunded before revocations were remembered stays refunded when its session comes back", async () => {
    const { t, userId, tpl } = await setup();
    const p = paid(userId, tpl.id, 1);
    await fulfilCheckout(t.db, p);
    await t.db.updateTable("purchases").set({ status: "refunded" }).where("user_id", "=", userId).execute();
    expect(await fulfilCheckout(t.db, p)).toEqual({ outcome: "revoked", reason: "refunded" });
    expect(await rowsOf(t, userId)).toEqual([expect.objectContaining({ status: "refunded" })]);
    await t.close();
  });

  it("a new session after a refund is a new purchase; a late refund of the old one leaves it alone", async () => {
    const { t, userId, tpl } = await setup();
    const first = paid(userId, tpl.id, 1);
    const created = await fulfilCheckout(t.db, first);
    await revokeCheckout(t.db, revocation("refunded", first));
    const second = paid(userId, tpl.id, 2);
    const again = await fulfilCheckout(t.db, second);
    expect(again).toMatchObject({ outcome: "created" });
    if (again.outcome !== "created" || created.outcome !== "created") throw new Error("unreachable");
    expect(again.licenseKey).not.toBe(created.licenseKey);
    expect(await rowsOf(t, userId)).toEqual([
      {
        id: created.purchaseId,
        status: "active",
        stripe_session_id: second.stripeSessionId,
        stripe_payment_intent: second.paymentIntent,
        license_key: again.licenseKey,
      },
    ]);
    expect(await fulfilCheckout(t.db, second)).toMatchObject({ outcome: "existing" });
    expect(await fulfilCheckout(t.db, first)).toEqual({ outcome: "revoked", reason: "refunded" });
    expect(await revokeCheckout(t.db, revocation("refunded", first))).toBe(0);
    expect(await purchaseFor(t.db, userId, tpl.id)).not.toBeNull();
    expect(await salesOf(t, tpl.id)).toBe(tpl.sales_count + 1);
    await t.close();
  });
});

describe("download links are checked when used", () => {
  it("serve only while the purchase they were signed for grants access", async () => {
    const { t, userId, tpl } = await setup();
    const secret = env().SESSION_SECRET;
    const p = paid(userId, tpl.id, 1);
    await fulfilCheckout(t.db, p);
    const { url } = await createDownload(t.db, env(), userId, tpl.id);
    const params = new URL(url, "http://x").searchParams;
    expect(await checkDownloadLink(t.db, secret, "atelier.zip", params)).toEqual({ ok: true });
    // The signature covers the file and the purchase.
    expect(await checkDownloadLink(t.db, secret, "maison.zip", params)).toEqual({
      ok: false,
      message: "Invalid link",
    });
    const other = new URLSearchParams(params);
    other.set("purchase", "someone-else");
    expect(await checkDownloadLink(t.db, secret, "atelier.zip", other)).toMatchObject({
      ok: false,
      message: "Invalid link",
    });
    const bare = new URLSearchParams(params);
    bare.delete("purchase");
    expect(await checkDownloadLink(t.db, secret, "atelier.zip", bare)).toMatchObject({
      ok: false,
      message: "Invalid link",
    });
    const purchaseId = params.get("purchase")!;
    const old = new URL(downloadUrl(secret, purchaseId, "atelier.zip", Date.now() - 3601_000), "http://x").searchParams;
    expect(await checkDownloadLink(t.db, secret, "atelier.zip", old)).toMatchObject({
      ok: false,
      message: "This link has expired",
    });

    await revokeCheckout(t.db, revocation("disputed", p));
    expect(await checkDownloadLink(t.db, secret, "atelier.zip", params)).toEqual({
      ok: false,
      message: DOWNLOAD_REVOKED.disputed,
    });
    await t.db.deleteFrom("purchases").where("id", "=", purchaseId).execute();
    expect(await checkDownloadLink(t.db, secret, "atelier.zip", params)).toMatchObject({
      ok: false,
      message: "This download is no longer available.",
    });
    await t.close();
  });
});

async function deliver(t: TestDb, type: string, object: object) {
  const payload = JSON.stringify({ id: `evt_${crypto.randomUUID()}`, object: "event", type, data: { object } });
  const header = new Stripe("sk_test_integration").webhooks.generateTestHeaderString({
    payload,
    secret: WEBHOOK_SECRET,
  });
  const res = await handleStripeWebhook(
    t.db,
    new Request("http://x/webhooks/stripe", { method: "POST", body: payload, headers: { "stripe-signature": header } }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
}

describe("the Stripe webhook", () => {
  it("a partial refund keeps access; the full refund that follows ends it", async () => {
    const { t, userId, tpl } = await setup();
    const p = paid(userId, tpl.id, 1);
    sessionsByPi.set(p.paymentIntent, [p.stripeSessionId]);
    await fulfilCheckout(t.db, p);
    await deliver(t, "charge.refunded", {
      id: "ch_partial",
      object: "charge",
      payment_intent: p.paymentIntent,
      amount: 7900,
      amount_refunded: 2000,
      refunded: false,
    });
    expect(await rowsOf(t, userId)).toEqual([expect.objectContaining({ status: "active" })]);
    await deliver(t, "charge.refunded", {
      id: "ch_partial",
      object: "charge",
      payment_intent: p.paymentIntent,
      amount: 7900,
      amount_refunded: 7900,
      refunded: true,
    });
    expect(await rowsOf(t, userId)).toEqual([expect.objectContaining({ status: "refunded" })]);
    const remembered = await t.db
      .selectFrom("stripe_revocations")
      .select(["stripe_id", "kind", "reason"])
      .orderBy("kind")
      .execute();
    expect(remembered).toEqual([
      { stripe_id: p.stripeSessionId, kind: "checkout_session", reason: "refunded" },
      { stripe_id: p.paymentIntent, kind: "payment_intent", reason: "refunded" },
    ]);
    await t.close();
  });

  it("a dispute without its payment intent is traced through its charge", async () => {
    const { t, userId, tpl } = await setup();
    const p = paid(userId, tpl.id, 1);
    // A purchase recorded before payment intents were stored: found through Stripe's session list.
    await fulfilCheckout(t.db, { ...p, paymentIntent: null });
    charges.set("ch_disputed", { id: "ch_disputed", object: "charge", payment_intent: p.paymentIntent });
    sessionsByPi.set(p.paymentIntent, [p.stripeSessionId]);
    await deliver(t, "charge.dispute.created", {
      id: "dp_1",
      object: "dispute",
      charge: "ch_disputed",
      payment_intent: null,
      status: "needs_response",
    });
    expect(stripeCalls).toContain("GET /v1/charges/ch_disputed");
    expect(await rowsOf(t, userId)).toEqual([expect.objectContaining({ status: "refunded" })]);
    await deliver(t, "checkout.session.completed", {
      id: p.stripeSessionId,
      object: "checkout.session",
      payment_status: "paid",
      amount_total: 7900,
      metadata: { templateId: tpl.id, userId },
      client_reference_id: userId,
      payment_intent: p.paymentIntent,
    });
    expect(await rowsOf(t, userId)).toEqual([expect.objectContaining({ status: "refunded" })]);
    await t.close();
  });
});

describe("prices have bounds", () => {
  it("the admin form takes $0 to $100,000 and says so beyond", () => {
    const base = { name: "N", tagline: "T", description: "D", category: "blog", features: "F", included: "I" };
    expect(MAX_TEMPLATE_PRICE_CENTS).toBe(10_000_000);
    expect(templateFormSchema.parse({ ...base, price: "100000" }).price).toBe(10_000_000);
    expect(templateFormSchema.parse({ ...base, price: "0" }).price).toBe(0);
    for (const [field, value, message] of [
      ["price", "100000.01", "Price must be at most $100,000"],
      ["price", 1e12, "Price must be at most $100,000"],
      ["originalPrice", "250000", "Original Price must be at most $100,000"],
    ] as const) {
      const r = templateFormSchema.safeParse({ ...base, price: "10", [field]: value });
      expect(r.success).toBe(false);
      expect(r.error!.flatten().fieldErrors[field]).toEqual([message]);
    }
  });

  it("admin procedures refuse a price above $100,000; checkout refuses a price of 0 before Stripe", async () => {
    const { t, userId } = await setup();
    const admin = await ensureUser(t.db, "boss@example.com");
    await t.db.insertInto("admin_users").values({ id: admin.id, is_super_admin: 0 }).execute();
    const asAdmin = createCaller(
      createContextInner({
        db: t.db,
        user: { id: admin.id, email: admin.email, fullName: null, ...(await rolesOf(t.db, admin.id)) },
      }),
    );
    const form = {
      name: "Big",
      tagline: "T",
      description: "D",
      category: "blog" as const,
      features: "F",
      included: "I",
    };
    await expect(asAdmin.admin.templates.create({ ...form, price: "100000.01" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const { id } = await asAdmin.admin.templates.create({ ...form, price: "0" });
    const buyer = createCaller(
      createContextInner({
        db: t.db,
        user: { id: userId, email: "b@example.com", fullName: null, isAdmin: false, isSuperAdmin: false },
      }),
    );
    const calls = stripeCalls.length;
    await expect(buyer.checkout.create({ templateId: id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: NOT_FOR_SALE,
    });
    await t.db.updateTable("templates").set({ price: 49 }).where("id", "=", id).execute();
    await expect(buyer.checkout.create({ templateId: id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: NOT_FOR_SALE,
    });
    expect(stripeCalls.length).toBe(calls);
    await t.close();
  });
});
