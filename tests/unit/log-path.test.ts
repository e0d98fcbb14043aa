import { describe, expect, it } from "vitest";
import { logPath } from "../../server/log-path";
import { maskEmails, serializeError } from "../../server/log.server";

describe("logPath: what a request line says about the URL", () => {
  it.each([
    ["/", "/"],
    ["/booking?step=3", "/booking?step=3"],
    ["/booking?index&step=1", "/booking?index&step=1"],
    ["/booking.data?step=2&_routes=routes%2Fbooking._index", "/booking.data?step=2&_routes=routes%2Fbooking._index"],
    ["/setup?token=abc123", "/setup?token=[redacted]"],
    ["/auth/callback?token=abc.def-ghi", "/auth/callback?token=[redacted]"],
    ["/pay/tok_0123456789", "/pay/:token"],
    ["/pay/tok_0123456789/invoice.pdf", "/pay/:token/invoice.pdf"],
    ["/proposal/AbCdEf0123456789xyz", "/proposal/:token"],
    ["/proposal/AbCdEf0123456789xyz/signed.pdf", "/proposal/:token/signed.pdf"],
    ["/call/abc.def", "/call/:token"],
    ["/calendar/s3cr3t.ics", "/calendar/:token"],
    ["/pay/tok_0123456789.data", "/pay/:token.data"],
    ["/pay/tok_0123456789?_routes=routes%2Fpay.%24token", "/pay/:token?_routes=routes%2Fpay.%24token"],
    [
      "/files/booking-files/b1/Ada%20Lovelace%20brief.pdf?exp=1700000000&sig=abcdef",
      "/files/booking-files/:path?exp=[redacted]&sig=[redacted]",
    ],
    ["/files/template-images/x/y.png", "/files/template-images/:path"],
    ["/admin/backups/download?name=studio-2026.studio-backup", "/admin/backups/download?name=[redacted]"],
    ["/templates/aurora?session_id=cs_test_123", "/templates/aurora?session_id=[redacted]"],
    ["/api/trpc/templates.list?batch=1&input=%7B%7D", "/api/trpc/templates.list?batch=[redacted]&input=[redacted]"],
    ["/someone@example.com/x", "/:email/x"],
    ["/x?ada@example.com", "/x?:email"],
    ["/booking?step=<script>", "/booking?step=[redacted]"],
    ["/page#fragment?token=1", "/page"],
  ])("%s → %s", (url, logged) => {
    expect(logPath(url)).toBe(logged);
  });

  it("cuts a very long URL", () => {
    expect(logPath("/" + "a".repeat(5000)).length).toBeLessThanOrEqual(513);
  });
});

describe("errors and messages in a line", () => {
  it("masks addresses, keeping the domain", () => {
    expect(maskEmails("to=ada.lovelace+x@example.co.uk failed")).toBe("to=a***@example.co.uk failed");
  });

  it("keeps an error's type, message, code and stack, and not what an SDK attached", () => {
    const error = Object.assign(new Error("refused for bob@example.com", { cause: new Error("socket hang up") }), {
      code: "E_REFUSED",
      headers: { authorization: "Bearer secret" },
    });
    const s = serializeError(error);
    expect(s).toMatchObject({
      type: "Error",
      message: "refused for b***@example.com",
      code: "E_REFUSED",
      cause: "socket hang up",
    });
    expect(String(s.stack)).toMatch(/log-path\.test\.ts/);
    expect(JSON.stringify(s)).not.toContain("secret");
  });
});
