// Local fakes of the outside services, at the HTTP boundary (DESIGN.md §4):
//  - /calendly: a page standing in for the scheduling widget; its button books a call in the fake
//    Calendly API below and posts `calendly.event_scheduled` with the event and invitee URIs to
//    the embedding page, from this server's origin.
//  - /scheduled_events/…: the Calendly API (tests/helpers/calendly-fake.mjs), token
//    `calendly-e2e-token`; /__calendly/invitee?email=… shows a test what was booked,
//    POST /__calendly/cancel?email=… cancels it and answers the `invitee.canceled` webhook body, and
//    /__calendly/mode?set=ok|down|hang makes the API answer, fail or hang.
//  - /v1/checkout/sessions: a Stripe-compatible subset used by the real `stripe` SDK.
//  - /pay/<id>: the "hosted checkout" page; /pay/<id>/complete marks the session paid.
import http from "node:http";
import { createCalendlyFake } from "./calendly-fake.mjs";

const port = Number(process.env.FAKES_PORT || 4999);
const base = `http://127.0.0.1:${port}`;
const sessions = new Map();
let n = 0;
const calendly = createCalendlyFake({ token: "calendly-e2e-token" });
/** Calls booked through the fake widget, by the invitee's email. */
const booked = new Map();

function send(res, status, body, type = "application/json") {
  res.writeHead(status, { "Content-Type": type });
  res.end(type === "application/json" ? JSON.stringify(body) : body);
}

/** A string as a JavaScript literal safe inside an inline <script>. */
const jsString = (v) => JSON.stringify(v || "").replace(/</g, "\\u003c");

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
  if (calendly.handle(req, res)) return;
  if (url.pathname === "/__calendly/book" && req.method === "POST") {
    const p = new URLSearchParams(await readBody(req));
    const call = calendly.schedule({
      email: p.get("email") || "",
      name: p.get("name") || undefined,
      timezone: p.get("timezone") || undefined,
    });
    booked.set(call.invitee.email.toLowerCase(), call);
    return send(res, 200, { event: { uri: call.eventUri }, invitee: { uri: call.inviteeUri } });
  }
  if (url.pathname === "/__calendly/invitee") {
    const call = booked.get((url.searchParams.get("email") || "").toLowerCase());
    return call
      ? send(res, 200, {
          eventUri: call.eventUri,
          inviteeUri: call.inviteeUri,
          event: call.event,
          invitee: calendly.inviteeByUri(call.inviteeUri),
        })
      : send(res, 404, { error: "none" });
  }
  if (url.pathname === "/__calendly/cancel" && req.method === "POST") {
    // The visitor cancels in the calendar; the test posts (signed) the webhook Calendly would send.
    const call = booked.get((url.searchParams.get("email") || "").toLowerCase());
    if (!call) return send(res, 404, { error: "none" });
    calendly.cancel(call.inviteeUri);
    return send(res, 200, { webhook: calendly.webhookBody("invitee.canceled", call.inviteeUri) });
  }
  if (url.pathname === "/__calendly/mode") {
    calendly.state.mode = url.searchParams.get("set") || "ok";
    return send(res, 200, { mode: calendly.state.mode });
  }
  if (url.pathname.startsWith("/calendly")) {
    const field = (k) => (url.searchParams.get(k) || "").replace(/[<>&"]/g, "");
    // The widget books the call (in the fake API), then tells the page which event and invitee it made.
    return send(
      res,
      200,
      `<!doctype html><html><body style="font-family:sans-serif"><h1>Pick a time</h1>
<p id="prefill">${["name", "email", "a1", "a2", "a3"].map((k) => `${k}=${field(k)}`).join("; ")}</p>
<button id="schedule" disabled>Schedule event</button>
<script>
// Enabled only once its handler is attached, so a click can never land before the script ran.
const scheduleButton = document.getElementById("schedule");
scheduleButton.addEventListener("click", async () => {
  const body = new URLSearchParams({ email: ${jsString(url.searchParams.get("email"))}, name: ${jsString(url.searchParams.get("name"))} });
  const payload = await fetch("/__calendly/book", { method: "POST", body }).then((r) => r.json());
  parent.postMessage({ event: "calendly.event_scheduled", payload }, "*");
});
scheduleButton.disabled = false;
</script>
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
    return s
      ? send(res, 200, s)
      : send(res, 404, { error: { type: "invalid_request_error", message: "No such session" } });
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
    return send(
      res,
      200,
      `<!doctype html><html><body><h1>Fake checkout</h1><p id="amount">${s.amount_total}</p><a href="${s.success_url}">Return</a></body></html>`,
      "text/html",
    );
  }
  send(res, 404, { error: { message: "not found" } });
});

server.listen(port, "127.0.0.1", () => console.log(`[fakes] listening on ${base}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
