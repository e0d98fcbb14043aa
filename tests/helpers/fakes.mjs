// Local fakes of the outside services, at the HTTP boundary (DESIGN.md §4):
//  - /calendly: a page standing in for the scheduling widget; its button posts
//    `calendly.event_scheduled` to the embedding page, from this server's origin.
//  - /v1/checkout/sessions: a Stripe-compatible subset used by the real `stripe` SDK.
//  - /pay/<id>: the "hosted checkout" page; /pay/<id>/complete marks the session paid.
import http from "node:http";

const port = Number(process.env.FAKES_PORT || 4999);
const base = `http://127.0.0.1:${port}`;
const sessions = new Map();
let n = 0;

function send(res, status, body, type = "application/json") {
  res.writeHead(status, { "Content-Type": type });
  res.end(type === "application/json" ? JSON.stringify(body) : body);
}

function readBody(req) {
  return new Promise((resolve) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => resolve(data));
  });
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, base);
  if (url.pathname === "/healthz") return send(res, 200, "ok", "text/plain");
  if (url.pathname.startsWith("/calendly")) {
    return send(
      res,
      200,
      `<!doctype html><html><body style="font-family:sans-serif"><h1>Pick a time</h1>
<p id="prefill">${["name", "email", "a1", "a2", "a3"].map((k) => `${k}=${(url.searchParams.get(k) || "").replace(/[<>&"]/g, "")}`).join("; ")}</p>
<button id="schedule" onclick="parent.postMessage({event:'calendly.event_scheduled',payload:{}}, '*')">Schedule event</button>
</body></html>`,
      "text/html",
    );
  }
  if (url.pathname === "/v1/checkout/sessions" && req.method === "POST") {
    const p = new URLSearchParams(await readBody(req));
    const id = `cs_test_${Date.now()}_${++n}`;
    const s = {
      id,
      object: "checkout.session",
      url: `${base}/pay/${id}`,
      mode: p.get("mode"),
      payment_status: "unpaid",
      status: "open",
      amount_total: Number(p.get("line_items[0][price_data][unit_amount]")),
      currency: p.get("line_items[0][price_data][currency]"),
      client_reference_id: p.get("client_reference_id"),
      customer_email: p.get("customer_email"),
      metadata: { templateId: p.get("metadata[templateId]"), userId: p.get("metadata[userId]") },
      success_url: (p.get("success_url") || "").replace("{CHECKOUT_SESSION_ID}", id),
      cancel_url: p.get("cancel_url"),
      payment_intent: `pi_${id}`,
    };
    sessions.set(id, s);
    return send(res, 200, s);
  }
  if (url.pathname === "/v1/checkout/sessions" && req.method === "GET") {
    const pi = url.searchParams.get("payment_intent");
    const data = [...sessions.values()].filter((s) => !pi || s.payment_intent === pi);
    return send(res, 200, { object: "list", data, has_more: false, url: "/v1/checkout/sessions" });
  }
  const m = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
  if (m && req.method === "GET") {
    const s = sessions.get(m[1]);
    return s ? send(res, 200, s) : send(res, 404, { error: { type: "invalid_request_error", message: "No such session" } });
  }
  const pay = url.pathname.match(/^\/pay\/([^/]+)(\/complete)?$/);
  if (pay) {
    const s = sessions.get(pay[1]);
    if (!s) return send(res, 404, "unknown session", "text/plain");
    if (pay[2]) {
      s.payment_status = "paid";
      s.status = "complete";
      return send(res, 200, s);
    }
    return send(res, 200, `<!doctype html><html><body><h1>Fake checkout</h1><p id="amount">${s.amount_total}</p><a href="${s.success_url}">Return</a></body></html>`, "text/html");
  }
  send(res, 404, { error: { message: "not found" } });
});

server.listen(port, "127.0.0.1", () => console.log(`[fakes] listening on ${base}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
