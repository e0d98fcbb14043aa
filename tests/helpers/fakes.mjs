// Local fakes of the outside services, at the HTTP boundary (DESIGN.md §4):
//  - /calendly: a page standing in for the scheduling widget; its button books a call in the fake
//    Calendly API below and posts `calendly.event_scheduled` with the event and invitee URIs to
//    the embedding page, from this server's origin.
//  - /scheduled_events/…: the Calendly API (tests/helpers/calendly-fake.mjs), token
//    `calendly-e2e-token`; /__calendly/invitee?email=… shows a test what was booked,
//    POST /__calendly/cancel?email=… cancels it and answers the `invitee.canceled` webhook body, and
//    /__calendly/mode?set=ok|down|hang makes the API answer, fail or hang.
//  - /v1/…: Stripe (tests/helpers/stripe-fake.mjs): checkout sessions, payment intents, refunds,
//    used by the real `stripe` SDK; /__stripe/requests lists what reached it, POST
//    /__stripe/expire/<id> expires a session, /__stripe/charge/<pi> shows a payment's charge.
//  - /pay/<id>: the "hosted checkout" page (its Pay button pays and returns to success_url);
//    POST /pay/<id>/complete marks the session paid.
//  - SMTP on SMTP_PORT (smtp-server, user e2e / e2e-pass): accepts every message; the tests read
//    what was sent from the outbox, as before.
import http from "node:http";
import { SMTPServer } from "smtp-server";
import { createCalendlyFake } from "./calendly-fake.mjs";
import { createStripeFake } from "./stripe-fake.mjs";

const port = Number(process.env.FAKES_PORT || 4999);
const base = `http://127.0.0.1:${port}`;
const stripe = createStripeFake({ base });
const calendly = createCalendlyFake({ token: "calendly-e2e-token" });
/** @typedef {ReturnType<typeof calendly.schedule>} Call */
/** @type {Map<string, Call>} Calls booked through the fake widget, by the invitee's email. */
const booked = new Map();

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body JSON, or the text itself for another type
 */
function send(res, status, body, type = "application/json") {
  res.writeHead(status, { "Content-Type": type });
  res.end(type === "application/json" ? JSON.stringify(body) : String(body));
}

/** A string as a JavaScript literal safe inside an inline <script>. */
const jsString = (/** @type {string | null} */ v) => JSON.stringify(v || "").replace(/</g, "\\u003c");

/**
 * @param {http.IncomingMessage} req
 * @returns {Promise<string>}
 */
function readBody(req) {
  return new Promise((resolve) => {
    let data = "";
    req.on("data", (/** @type {Buffer} */ c) => (data += c));
    req.on("end", () => resolve(data));
  });
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", base);
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
    const mode = url.searchParams.get("set") || "ok";
    if (mode !== "ok" && mode !== "down" && mode !== "hang") return send(res, 400, { error: `no mode ${mode}` });
    calendly.state.mode = mode;
    return send(res, 200, { mode: calendly.state.mode });
  }
  if (url.pathname.startsWith("/calendly")) {
    const field = (/** @type {string} */ k) => (url.searchParams.get(k) || "").replace(/[<>&"]/g, "");
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
  if (await stripe.handle(req, res)) return;
  if (url.pathname === "/__stripe/requests") return send(res, 200, stripe.requests);
  const expire = url.pathname.match(/^\/__stripe\/expire\/([^/]+)$/);
  if (expire && req.method === "POST") return send(res, 200, stripe.expire(expire[1]));
  const charge = url.pathname.match(/^\/__stripe\/charge\/([^/]+)$/);
  if (charge) return send(res, 200, stripe.chargeOf(charge[1]));
  const pay = url.pathname.match(/^\/pay\/([^/]+)(\/complete)?$/);
  if (pay) {
    const s = stripe.sessions.get(pay[1]);
    if (!s) return send(res, 404, "unknown session", "text/html");
    if (pay[2]) {
      const paid = stripe.complete(s.id);
      // The hosted page's own button returns the client to the studio, as Stripe does.
      if (url.searchParams.get("return") === "1") {
        res.writeHead(303, { Location: paid.success_url });
        return res.end();
      }
      return send(res, 200, paid);
    }
    const amount = (s.amount_total / 100).toFixed(2);
    return send(
      res,
      200,
      `<!doctype html><html><head><title>Fake checkout</title></head><body><h1>Fake checkout</h1>
<p id="product">${String(s.product || "").replace(/[<>&"]/g, "")}</p><p id="email">${String(s.customer_email || "").replace(/[<>&"]/g, "")}</p>
<p id="amount">${s.amount_total}</p>
<form method="post" action="/pay/${s.id}/complete?return=1"><button type="submit">Pay $${amount}</button></form>
<a href="${s.success_url}">Return</a></body></html>`,
      "text/html",
    );
  }
  send(res, 404, { error: { message: "not found" } });
});

server.listen(port, "127.0.0.1", () => console.log(`[fakes] listening on ${base}`));

if (process.env.SMTP_PORT) {
  const smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, cb) =>
      auth.username === "e2e" && auth.password === "e2e-pass"
        ? cb(null, { user: "e2e" })
        : cb(new Error("Authentication failed")),
    onData: (stream, _session, cb) => {
      stream.on("data", () => {});
      stream.on("end", () => cb());
    },
  });
  smtp.listen(Number(process.env.SMTP_PORT), "127.0.0.1");
}
process.on("SIGTERM", () => server.close(() => process.exit(0)));
