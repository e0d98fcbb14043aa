import { describe, expect, it } from "vitest";
import {
  bodyLimitFor,
  contentSecurityPolicy,
  isBodyTooLarge,
  formEncodingRefusal,
  isCrossSiteWrite,
  requestLineRefusal,
  routePathOf,
} from "../../server/http/security.server";

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

  it("apply by route, whatever suffix or data request reaches it", () => {
    expect(routePathOf("/booking.data")).toBe("/booking");
    expect(routePathOf("/_root.data")).toBe("/");
    expect(routePathOf("/booking/")).toBe("/booking");
    // The wizard with JavaScript posts /booking.data?index&step=5: a 2 MB logo is within the step's limit.
    expect(isBodyTooLarge("POST", "/booking.data", "?index&step=5", String(2 * 1024 * 1024))).toBe(false);
    expect(bodyLimitFor("POST", "/booking.data", "?index&step=5")).toBe(bodyLimitFor("POST", "/booking", "?step=5"));
    expect(isBodyTooLarge("POST", "/booking.data", "?index&step=1", String(2 * 1024 * 1024))).toBe(true);
    // One file per request: 10 MB and its multipart envelope pass, 11 MB does not.
    expect(isBodyTooLarge("POST", "/booking/files", "", String(10 * 1024 * 1024 + 1000))).toBe(false);
    expect(isBodyTooLarge("POST", "/booking/files", "", String(11 * 1024 * 1024))).toBe(true);
    expect(bodyLimitFor("POST", "/admin/upload.data", "?bucket=template-files")).toBe(
      bodyLimitFor("POST", "/admin/upload", "?bucket=template-files"),
    );
  });
});

describe("requests no route can answer", () => {
  it("are refused with a 4xx before anything reads them", () => {
    expect(requestLineRefusal("TRACE", "/")?.status).toBe(405);
    expect(requestLineRefusal("GET", "*")?.status).toBe(400);
    expect(requestLineRefusal("GET", "http://evil.example/")?.status).toBe(400);
    expect(formEncodingRefusal("POST", "/booking?step=1", "text/plain")?.status).toBe(415);
    expect(formEncodingRefusal("POST", "/auth/email", "multipart/form-data")?.status).toBe(415);
    expect(formEncodingRefusal("POST", "/auth/email", null)?.status).toBe(415);
    expect(formEncodingRefusal("POST", "/booking?step=5", "multipart/form-data; boundary=----x")).toBeNull();
    expect(
      formEncodingRefusal("POST", "/booking.data?index&step=1", "application/x-www-form-urlencoded;charset=UTF-8"),
    ).toBeNull();
    expect(formEncodingRefusal("POST", "/api/trpc/checkout.create", "application/json")).toBeNull();
    expect(formEncodingRefusal("POST", "/webhooks/stripe", "application/json; charset=utf-8")).toBeNull();
    expect(requestLineRefusal("GET", "/templates?category=saas")).toBeNull();
  });
});
