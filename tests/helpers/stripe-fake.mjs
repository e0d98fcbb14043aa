// A Stripe-compatible subset at the HTTP boundary (DESIGN.md §4), reached by the real `stripe` SDK
// through STRIPE_API_BASE: Checkout Sessions (with idempotency keys, metadata, expiry), payment
// intents and their charges, and refunds (full or partial, never more than what remains), as
// Stripe answers them. Used by tests/helpers/fakes.mjs (the browser suite) and by integration tests.
//
//   const stripe = createStripeFake({ base: "http://127.0.0.1:4999" });
//   http.createServer(async (req, res) => { if (await stripe.handle(req, res)) return; ... });
//   stripe.complete(sessionId)       // the client paid: the session is paid, with its payment intent
//   stripe.expire(sessionId)         // the session ran out (24 hours in Stripe)
//   stripe.requests                  // every API request: method, path, idempotency key, form
//   stripe.chargeOf(paymentIntent)   // the charge, as `charge.refunded` carries it

/**
 * Stripe's form encoding (`a[b][c]=v`) read back into objects.
 * @param {string} text
 * @returns {Record<string, any>} nested as the keys say, with string leaves
 */
export function parseForm(text) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, "").split("[");
    let at = out;
    path.forEach((p, i) => {
      if (i === path.length - 1) at[p] = value;
      else at = at[p] ??= {};
    });
  }
  return out;
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @returns {Promise<string>}
 */
function readBody(req) {
  return new Promise((resolve) => {
    let data = "";
    req.on("data", (/** @type {Buffer} */ c) => (data += c));
    req.on("end", () => resolve(data));
  });
}

/** An answer of the API: its status and JSON body. */
/** @typedef {{ status: number, body: unknown }} Reply */

/** @param {{ base: string }} options the origin the fake is reached at (its Checkout pages' links) */
export function createStripeFake({ base }) {
  /** @type {Map<string, any>} Checkout Sessions by id, as Stripe keeps them */
  const sessions = new Map();
  /** @type {Map<string, { amount: number, charge: string, metadata: Record<string, string> }>} */
  const intents = new Map();
  /** @type {any[]} every refund made, as Stripe answers it */
  const refunds = [];
  /** @type {Map<string, Reply>} answers by idempotency key */
  const replies = new Map();
  /** @type {{ method: string | undefined, path: string, idempotencyKey: string | null, form: Record<string, any> }[]} */
  const requests = [];
  let n = 0;
  const now = () => Math.floor(Date.now() / 1000);
  /**
   * @param {string} url
   * @param {unknown[]} data
   */
  const list = (url, data) => ({ object: "list", data, has_more: false, url });
  /**
   * @param {number} status
   * @param {string} message
   * @param {string} code
   * @returns {Reply}
   */
  const error = (status, message, code) => ({
    status,
    body: { error: { type: "invalid_request_error", message, code } },
  });

  /** @param {string} pi */
  function refundedOf(pi) {
    return refunds.filter((r) => r.payment_intent === pi).reduce((sum, r) => sum + r.amount, 0);
  }

  /** @param {string} pi */
  function chargeOf(pi) {
    const intent = intents.get(pi);
    if (!intent) return null;
    const amountRefunded = refundedOf(pi);
    return {
      id: intent.charge,
      object: "charge",
      amount: intent.amount,
      amount_refunded: amountRefunded,
      refunded: amountRefunded >= intent.amount,
      payment_intent: pi,
      metadata: intent.metadata,
    };
  }

  /** @param {Record<string, any>} form */
  function createSession(form) {
    const id = `cs_test_${Date.now()}_${++n}`;
    const item = form.line_items?.["0"] ?? {};
    const s = {
      id,
      object: "checkout.session",
      url: `${base}/pay/${id}`,
      mode: form.mode,
      payment_status: "unpaid",
      status: "open",
      amount_total: Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1),
      currency: item.price_data?.currency,
      client_reference_id: form.client_reference_id ?? null,
      customer_email: form.customer_email ?? null,
      metadata: form.metadata ?? {},
      success_url: (form.success_url || "").replace("{CHECKOUT_SESSION_ID}", id),
      cancel_url: form.cancel_url ?? null,
      expires_at: now() + 24 * 3600,
      payment_intent: null,
      product: item.price_data?.product_data?.name ?? null,
      _intentMetadata: form.payment_intent_data?.metadata ?? {},
    };
    sessions.set(id, s);
    return s;
  }

  /** @param {any} s */
  const visible = (s) => {
    const { _intentMetadata, ...rest } = s;
    void _intentMetadata;
    return rest;
  };

  /**
   * @param {Record<string, any>} form
   * @returns {Reply}
   */
  function createRefund(form) {
    const pi = form.payment_intent;
    const intent = intents.get(pi);
    if (!intent) return error(400, `No such payment_intent: '${pi}'`, "resource_missing");
    const remaining = intent.amount - refundedOf(pi);
    const amount = form.amount === undefined ? remaining : Number(form.amount);
    if (remaining <= 0)
      return error(400, `Charge ${intent.charge} has already been refunded.`, "charge_already_refunded");
    if (!(amount > 0)) return error(400, "Invalid positive integer", "parameter_invalid_integer");
    if (amount > remaining)
      return error(
        400,
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`,
        "amount_too_large",
      );
    const refund = {
      id: `re_test_${Date.now()}_${++n}`,
      object: "refund",
      amount,
      charge: intent.charge,
      payment_intent: pi,
      status: "succeeded",
      created: now(),
      metadata: form.metadata ?? {},
    };
    refunds.push(refund);
    return { status: 200, body: refund };
  }

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {URL} url
   * @returns {Promise<Reply | null | undefined>}
   */
  async function answer(req, url) {
    const raw = req.method === "POST" ? await readBody(req) : "";
    const form = parseForm(raw);
    const key = /** @type {string | undefined} */ (req.headers["idempotency-key"]) ?? null;
    requests.push({ method: req.method, path: url.pathname, idempotencyKey: key, form });
    if (req.method === "POST" && key && replies.has(key)) return replies.get(key);
    /** @type {Reply} */
    let reply;
    if (url.pathname === "/v1/checkout/sessions" && req.method === "POST")
      reply = { status: 200, body: visible(createSession(form)) };
    else if (url.pathname === "/v1/checkout/sessions" && req.method === "GET") {
      const pi = url.searchParams.get("payment_intent");
      const data = [...sessions.values()].filter((s) => !pi || s.payment_intent === pi).map(visible);
      reply = { status: 200, body: list("/v1/checkout/sessions", data) };
    } else if (/^\/v1\/checkout\/sessions\/[^/]+$/.test(url.pathname) && req.method === "GET") {
      const s = sessions.get(/** @type {string} */ (url.pathname.split("/").pop()));
      reply = s ? { status: 200, body: visible(s) } : error(404, "No such checkout.session", "resource_missing");
    } else if (url.pathname === "/v1/refunds" && req.method === "POST") reply = createRefund(form);
    else if (url.pathname === "/v1/refunds" && req.method === "GET") {
      const pi = url.searchParams.get("payment_intent");
      reply = {
        status: 200,
        body: list(
          "/v1/refunds",
          refunds.filter((r) => !pi || r.payment_intent === pi),
        ),
      };
    } else if (/^\/v1\/charges\/[^/]+$/.test(url.pathname) && req.method === "GET") {
      const id = url.pathname.split("/").pop();
      const pi = [...intents.entries()].find(([, i]) => i.charge === id)?.[0];
      reply = pi ? { status: 200, body: chargeOf(pi) } : error(404, "No such charge", "resource_missing");
    } else return null;
    if (req.method === "POST" && key) replies.set(key, reply);
    return reply;
  }

  return {
    sessions,
    refunds,
    requests,
    chargeOf,
    /**
     * Answers Stripe's API paths (true), or leaves the request to the caller (false).
     * @param {import("node:http").IncomingMessage} req
     * @param {import("node:http").ServerResponse} res
     */
    async handle(req, res) {
      const url = new URL(req.url ?? "/", base);
      if (!url.pathname.startsWith("/v1/")) return false;
      const reply = await answer(req, url);
      if (!reply) return false;
      res.writeHead(reply.status, { "Content-Type": "application/json", "Request-Id": `req_${++n}` });
      res.end(JSON.stringify(reply.body));
      return true;
    },
    /**
     * The client paid: the session is complete and paid, with a payment intent and its charge.
     * @param {string} id
     */
    complete(id) {
      const s = sessions.get(id);
      if (!s) return null;
      if (s.payment_status !== "paid") {
        s.payment_status = "paid";
        s.status = "complete";
        s.payment_intent = `pi_${id}`;
        intents.set(s.payment_intent, {
          amount: s.amount_total,
          charge: `ch_${id}`,
          metadata: s._intentMetadata,
        });
      }
      return visible(s);
    },
    /**
     * The session ran out before it was paid.
     * @param {string} id
     */
    expire(id) {
      const s = sessions.get(id);
      if (s && s.status === "open") {
        s.status = "expired";
        s.expires_at = now() - 1;
      }
      return s ? visible(s) : null;
    },
  };
}
