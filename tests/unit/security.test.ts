import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isCrossSiteWrite } from "../../server/http/security.server";

const APP = "http://localhost:3000";

describe("cross-site writes", () => {
  it("refuses a POST from another origin", () => {
    expect(isCrossSiteWrite("POST", "/booking", { origin: "https://evil.example" }, APP)).toBe(true);
    expect(isCrossSiteWrite("POST", "/booking", { origin: "null" }, APP)).toBe(true);
    expect(isCrossSiteWrite("POST", "/booking", { secFetchSite: "cross-site" }, APP)).toBe(true);
  });
  it("allows same-origin writes, reads and the Stripe webhook", () => {
    expect(isCrossSiteWrite("POST", "/booking", { origin: APP }, APP)).toBe(false);
    expect(isCrossSiteWrite("POST", "/booking", { secFetchSite: "same-origin" }, APP)).toBe(false);
    expect(isCrossSiteWrite("GET", "/booking", { origin: "https://evil.example" }, APP)).toBe(false);
    expect(isCrossSiteWrite("POST", "/webhooks/stripe", { origin: "https://evil.example" }, APP)).toBe(false);
  });
});

describe("content security policy", () => {
  it("carries the nonce, forbids framing and allows only the calendar's frames", () => {
    const csp = contentSecurityPolicy("abc", {
      CALENDLY_URL: "https://calendly.com/x/y",
      isProduction: true,
      GOOGLE_AUTH_BASE: undefined,
      STRIPE_API_BASE: undefined,
    });
    expect(csp).toContain("script-src 'self' 'nonce-abc'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("frame-src https://calendly.com");
    expect(csp).not.toContain("unsafe-eval");
  });
});
