/**
 * Security headers and cross-site refusals as the running production server sends them, on every
 * kind of response: cached anonymous pages, pages rendered per request, static files, tRPC,
 * redirects, errors and the refusals themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingSteps, queryDb, sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
let buyer: string;
beforeAll(async () => {
  server = await startServer();
  buyer = await sessionCookie(server.dataDir, "headers@example.com");
});
afterAll(async () => {
  await server?.stop();
});

type Probe = { name: string; path: string; status: number; init?: RequestInit };
const probes = (): Probe[] => [
  { name: "cached home page", status: 200, path: "/" },
  { name: "cached home page, second hit", status: 200, path: "/" },
  { name: "page rendered for a signed-in buyer", status: 200, path: "/packages", init: { headers: { cookie: buyer } } },
  { name: "booking wizard", status: 200, path: "/booking?step=1" },
  { name: "not-found page", status: 404, path: "/templates/no-such-template" },
  { name: "fingerprinted asset", status: 200, path: "/favicon.svg" },
  { name: "tRPC query", status: 200, path: "/api/trpc/templates.list" },
  { name: "health check", status: 200, path: "/healthz" },
  {
    name: "redirect after a booking step",
    status: 302,
    path: "/booking?index&step=1",
    init: {
      method: "POST",
      body: new URLSearchParams(bookingSteps("ada@example.com")[0][1] as Record<string, string>),
      headers: { Origin: "" },
    },
  },
  {
    name: "cross-site refusal",
    status: 403,
    path: "/booking?index&step=1",
    init: {
      method: "POST",
      body: "name=x",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
    },
  },
];

async function probe(p: Probe, extra: Record<string, string> = {}) {
  const headers = new Headers(p.init?.headers);
  if (headers.get("Origin") === "") headers.set("Origin", server.url);
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  const res = await fetch(server.url + p.path, { ...p.init, headers, redirect: "manual" });
  const body = await res.text();
  return { res, body };
}

describe("every response carries the security headers", () => {
  it("CSP with a fresh nonce (enforced), frame-ancestors 'none', nosniff, Referrer-Policy, no X-Powered-By, no HSTS over plain HTTP", async () => {
    const nonces: string[] = [];
    for (const p of probes()) {
      const { res, body } = await probe(p);
      const where = `${p.name} (${res.status})`;
      expect(res.status, where).toBe(p.status);
      const csp = res.headers.get("content-security-policy");
      expect(csp, where).toBeTruthy();
      expect(res.headers.get("content-security-policy-report-only"), where).toBeNull();
      expect(csp, where).toContain("frame-ancestors 'none'");
      expect(csp, where).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=_-]{16,}'/);
      const scriptSrc = /script-src [^;]*/.exec(csp!)![0];
      expect(scriptSrc, where).not.toContain("'unsafe-inline'");
      expect(csp, where).not.toContain("'unsafe-eval'");
      expect(res.headers.get("x-content-type-options"), where).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), where).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-powered-by"), where).toBeNull();
      expect(res.headers.get("strict-transport-security"), where).toBeNull();
      const nonce = /'nonce-([^']+)'/.exec(csp!)![1];
      nonces.push(nonce);
      if (
        res.headers.get("content-type")?.startsWith("text/html") &&
        p.init?.headers &&
        new Headers(p.init.headers).get("cookie")
      ) {
        // A page rendered for this request: every script element carries this response's nonce.
        const scripts = [...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        expect(scripts.length, where).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, where).toContain(`nonce="${nonce}"`);
      }
    }
    // One nonce per response, never reused, cached pages included.
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("HSTS of at least a year when the request came over HTTPS (X-Forwarded-Proto from the proxy on loopback)", async () => {
    for (const p of probes()) {
      const { res } = await probe(p, { "X-Forwarded-Proto": "https" });
      const hsts = res.headers.get("strict-transport-security");
      expect(hsts, `${p.name} (${res.status})`).toBeTruthy();
      expect(Number(/max-age=(\d+)/.exec(hsts!)![1]), p.name).toBeGreaterThanOrEqual(31536000);
    }
  });
});

describe("writes from another site are refused with 403", () => {
  const evil = { Origin: "https://evil.example" };
  const cases: { name: string; path: string; init: RequestInit }[] = [
    {
      name: "booking step (Remix action)",
      path: "/booking?index&step=1",
      init: {
        method: "POST",
        headers: { ...evil, "Content-Type": "application/x-www-form-urlencoded" },
        body: "selectedPackage=essentials&name=Mallory&email=m%40example.com&intent=next",
      },
    },
    {
      name: "booking step without Origin, Sec-Fetch-Site cross-site",
      path: "/booking?index&step=1",
      init: {
        method: "POST",
        headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded" },
        body: "selectedPackage=essentials&name=Mallory&email=m%40example.com&intent=next",
      },
    },
    {
      name: "booking step from an opaque origin",
      path: "/booking?index&step=1",
      init: {
        method: "POST",
        headers: { Origin: "null", "Content-Type": "application/x-www-form-urlencoded" },
        body: "selectedPackage=essentials&name=Mallory&email=m%40example.com&intent=next",
      },
    },
    {
      name: "magic-link request",
      path: "/auth/email",
      init: {
        method: "POST",
        headers: { ...evil, "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=victim%40example.com",
      },
    },
    { name: "sign-out", path: "/auth/logout", init: { method: "POST", headers: { ...evil } } },
    {
      name: "tRPC mutation",
      path: "/api/trpc/checkout.create",
      init: {
        method: "POST",
        headers: { ...evil, "Content-Type": "application/json" },
        body: JSON.stringify({ templateId: "x" }),
      },
    },
    {
      name: "admin upload",
      path: "/admin/upload?bucket=template-images",
      init: { method: "POST", headers: { ...evil, "Content-Type": "application/octet-stream" }, body: "x" },
    },
  ];

  it.each(cases)("$name", async ({ path, init }) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", buyer);
    const res = await fetch(server.url + path, { ...init, headers, redirect: "manual" });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("Cross-site request refused");
  });

  it("wrote nothing and sent no mail for any refused request", () => {
    expect(
      queryDb<{ n: number }>(server.dataDir, "select count(*) n from booking_drafts where data like '%Mallory%'")[0].n,
    ).toBe(0);
    expect(
      queryDb<{ n: number }>(
        server.dataDir,
        "select count(*) n from email_outbox where to_email = 'victim@example.com'",
      )[0].n,
    ).toBe(0);
    expect(queryDb<{ n: number }>(server.dataDir, "select count(*) n from sessions")[0].n).toBe(1);
  });

  it("the same writes from the site itself go through", async () => {
    const res = await fetch(`${server.url}/booking?index&step=1`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(bookingSteps("ada@example.com")[0][1] as Record<string, string>),
    });
    expect(res.status).toBe(302);
  });

  it("the Stripe webhook is the one exception: another origin reaches it, and its signature decides", async () => {
    const res = await fetch(`${server.url}/webhooks/stripe`, {
      method: "POST",
      headers: { ...evil, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).not.toBe(403);
    expect(res.status).toBeLessThan(500);
  });

  it("tRPC mutations accept only JSON", async () => {
    const res = await fetch(`${server.url}/api/trpc/checkout.create`, {
      method: "POST",
      headers: { Origin: server.url, cookie: buyer, "Content-Type": "text/plain" },
      body: JSON.stringify({ templateId: "x" }),
    });
    expect(res.status).toBe(415);
  });
});

describe("TRUST_PROXY (issue 20.5)", () => {
  it("decides whose X-Forwarded-Proto counts: a proxy elsewhere is configurable, and loopback is then not trusted", async () => {
    const elsewhere = await startServer({ env: { TRUST_PROXY: "10.0.0.0/8, fd00::/8" } });
    try {
      for (const path of ["/", "/packages", "/booking"]) {
        const res = await fetch(`${elsewhere.url}${path}`, { headers: { "X-Forwarded-Proto": "https" } });
        expect(res.status, path).toBe(200);
        // The request came from loopback, which this setting does not trust: plain HTTP, no HSTS.
        expect(res.headers.get("strict-transport-security"), path).toBeNull();
      }
    } finally {
      await elsewhere.stop();
    }
    const bad = await startServer({ env: { TRUST_PROXY: "the-proxy" } }).catch((error: Error) => error);
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toContain("TRUST_PROXY is not a list of proxy addresses");
  });
});
