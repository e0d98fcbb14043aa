/**
 * Links that become origins the browser trusts are checked as URLs, not as text: the calendar link
 * (Settings → Studio) goes into the CSP's script-src and frame-src, so `http://localhost:1@evil.example/x`
 * (a user name "localhost" on evil.example) is refused like any plain-http link off this machine.
 */
import { describe, expect, it } from "vitest";
import { parseSection } from "#domain/studio-settings";
import { contentSecurityPolicy } from "../../server/http/security.server";

function studioForm(calendarUrl: string): FormData {
  const f = new FormData();
  const fields: Record<string, string> = {
    name: "Atelier Nord",
    contactEmail: "hello@ateliernord.test",
    calendarUrl,
  };
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

const calendarError = (url: string) => {
  const r = parseSection(studioForm(url), "studio");
  return r.status === "success" ? null : (r.error?.calendarUrl ?? null);
};

describe("the calendar link in Settings", () => {
  it("takes https anywhere and plain http only on this machine", () => {
    for (const ok of [
      "",
      "https://calendly.com/studio/intro",
      "http://localhost:4010/c",
      "http://127.0.0.1:4010/c",
      "http://127.8.9.10/c",
      "http://[::1]:4010/c",
    ])
      expect(calendarError(ok), ok).toBeNull();
    for (const bad of ["http://localhost.evil.example/x", "http://cal.example/x", "http://0.0.0.0/x"])
      expect(calendarError(bad), bad).toEqual(["The calendar link must start with https://"]);
    // A user name "localhost" (password "1") on evil.example: no loopback host at all.
    for (const bad of ["http://localhost:1@evil.example/x", "http://127.0.0.1:80@evil.example/x"])
      expect(calendarError(bad), bad).toEqual(["The calendar link must not hold a user name or password"]);
  });

  it("refuses a user name or password in it, on https too", () => {
    expect(calendarError("https://owner:secret@calendly.com/x")).toEqual([
      "The calendar link must not hold a user name or password",
    ]);
  });
});

describe("the calendar's origin in the Content-Security-Policy", () => {
  const csp = (CALENDLY_URL: string) =>
    contentSecurityPolicy("n", {
      CALENDLY_URL,
      isProduction: true,
      GOOGLE_AUTH_BASE: undefined,
      STRIPE_API_BASE: undefined,
    });

  it("is the link's origin when the link passes, and none when it does not", () => {
    expect(csp("http://127.0.0.1:4010/c")).toContain("frame-src http://127.0.0.1:4010;");
    const bad = csp("http://localhost:1@evil.example/x");
    expect(bad).not.toContain("evil.example");
    expect(bad).toContain("frame-src 'none'");
  });
});
