import { describe, expect, it } from "vitest";
import { bodyLimitFor, contentSecurityPolicy, isBodyTooLarge, isCrossSiteWrite } from "../../server/http/security.server";

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

describe("body limits", () => {
  it("refuse oversized writes before reading them", () => {
    expect(isBodyTooLarge("POST", "/auth/email", "", String(2 * 1024 * 1024))).toBe(true);
    expect(isBodyTooLarge("POST", "/auth/email", "", "200")).toBe(false);
    expect(isBodyTooLarge("POST", "/booking", "?step=5", String(40 * 1024 * 1024))).toBe(false);
    expect(isBodyTooLarge("POST", "/booking", "?step=5", String(60 * 1024 * 1024))).toBe(true);
    expect(isBodyTooLarge("POST", "/booking", "?step=1", String(2 * 1024 * 1024))).toBe(true);
    expect(bodyLimitFor("POST", "/admin/upload", "?bucket=template-files")).toBeGreaterThan(100 * 1024 * 1024);
    expect(isBodyTooLarge("GET", "/", "", "999999999")).toBe(false);
    expect(isBodyTooLarge("POST", "/auth/email", "", null)).toBe(false);
  });
});
