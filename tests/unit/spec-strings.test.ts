import { describe, expect, it } from "vitest";
import { BOOKING_FILE_ERRORS, bookingFileEntries, isViewableImage } from "#domain/booking-files";
import { signInDialogError } from "../../app/lib/signin-errors";
import { isStoredFilePath, storedArchivePath, storedImagePath, storedImages } from "#domain/template-files";
import { UPLOAD_NOT_ADMIN, UPLOAD_SIGNED_OUT, uploadRefusal } from "../../server/admin/uploads.server";
import { missingStripeSettings, STRIPE_NOT_CONFIGURED } from "../../server/payments/stripe.server";

describe("sign-in dialog errors travel as codes", () => {
  it("maps google_failed to the spec's message", () => {
    expect(signInDialogError("google_failed")).toBe("Failed to sign in with Google. Please try again.");
  });

  it.each([
    null,
    undefined,
    "",
    "auth_failed",
    "Google_Failed",
    "google_failed ",
    "<script>alert(1)</script>",
    "toString",
    "__proto__",
    "constructor",
  ])("shows nothing for %j", (code) => {
    expect(signInDialogError(code)).toBeNull();
  });
});

describe("admin upload refusals (SPEC.md §5)", () => {
  it("tells signed-out visitors and signed-in non-admins apart", () => {
    expect(UPLOAD_SIGNED_OUT).toBe("You must be an admin to upload files");
    expect(UPLOAD_NOT_ADMIN).toBe("Admin access required to upload files");
    expect(uploadRefusal("signed-out")).toBe("You must be an admin to upload files");
    expect(uploadRefusal("forbidden")).toBe("Admin access required to upload files");
  });
});

describe("booking files in the admin console", () => {
  it("has one message per action", () => {
    expect(BOOKING_FILE_ERRORS).toEqual({ view: "Failed to view file", download: "Failed to download file" });
  });

  it("offers View only for images", () => {
    for (const name of ["a.png", "b.JPG", "c.jpeg", "d.gif", "e.webp", "f.svg", "g.avif"])
      expect(isViewableImage(name), name).toBe(true);
    for (const name of ["brief.pdf", "logo.ai", "x.psd", "design.fig", "y.sketch", "png", "a.png.zip"])
      expect(isViewableImage(name), name).toBe(false);
  });

  it("names files as uploaded, or by the stored name without its number prefix", () => {
    expect(
      bookingFileEntries(
        [{ name: "Brand Guide.pdf", size: 10 }],
        ["bookings/b1/1700000000000-brand-guide.pdf", "bookings/b1/1700000000001-logo.png"],
      ),
    ).toEqual([
      { path: "bookings/b1/1700000000000-brand-guide.pdf", name: "Brand Guide.pdf", size: 10 },
      { path: "bookings/b1/1700000000001-logo.png", name: "logo.png", size: 0 },
    ]);
    expect(bookingFileEntries([], [])).toEqual([]);
  });
});

describe("stored template files in the admin form", () => {
  it("finds the path of a stored image's URL and nothing else", () => {
    expect(storedImagePath("/files/template-images/atelier-1.svg")).toBe("atelier-1.svg");
    expect(storedImagePath(" /files/template-images/a%20b.png ")).toBe("a b.png");
    for (const url of [
      "https://cdn.example.com/x.png",
      "/files/template-files/atelier.zip",
      "/files/booking-files/bookings/b/1-a.png",
      "/files/template-images/",
      "/files/template-images/../app.db",
      "/files/template-images/%2e%2e/app.db",
      "/files/template-images/a//b.png",
      "/files/template-images/.x.png.abc.tmp",
      "/files/template-images/x.png?v=1",
      "/files/template-images/%E0%A4%A.png",
    ]) {
      expect(storedImagePath(url), url).toBeNull();
    }
  });

  it("finds the archive path, refusing URLs and paths that leave the bucket", () => {
    expect(storedArchivePath("atelier.zip")).toBe("atelier.zip");
    expect(storedArchivePath(" nova-1-ab.rar ")).toBe("nova-1-ab.rar");
    for (const v of [
      "",
      "   ",
      "https://x.example/a.zip",
      "/etc/passwd",
      "../x.zip",
      "a/../../x.zip",
      "a\\b.zip",
      ".hidden.zip",
    ]) {
      expect(storedArchivePath(v), v).toBeNull();
    }
    expect(isStoredFilePath("a/b.png")).toBe(true);
    expect(isStoredFilePath("a\0b")).toBe(false);
    expect(isStoredFilePath("x".repeat(501))).toBe(false);
  });

  it("lists each stored image of the images field once", () => {
    expect(
      storedImages(
        "/files/template-images/a.png\n\nhttps://x.example/b.png\n /files/template-images/a.png \n/files/template-images/c.webp",
      ),
    ).toEqual([
      { url: "/files/template-images/a.png", path: "a.png" },
      { url: "/files/template-images/c.webp", path: "c.webp" },
    ]);
  });
});

describe("Stripe not configured", () => {
  it("tells buyers one sentence without setting names", () => {
    expect(STRIPE_NOT_CONFIGURED).toBe("Stripe checkout not configured yet.");
    expect(STRIPE_NOT_CONFIGURED).not.toMatch(/STRIPE_|SECRET|KEY/);
  });

  it("names the missing settings for the operator", () => {
    expect(missingStripeSettings({})).toEqual(["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]);
    expect(missingStripeSettings({ STRIPE_SECRET_KEY: "sk" })).toEqual(["STRIPE_WEBHOOK_SECRET"]);
    expect(missingStripeSettings({ STRIPE_SECRET_KEY: "sk", STRIPE_WEBHOOK_SECRET: "wh" })).toEqual([]);
  });
});
