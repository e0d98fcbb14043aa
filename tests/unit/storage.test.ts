import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  contentTypeFor,
  createStorage,
  publicUrl,
  safeFileName,
  signedUrl,
  StorageConflictError,
  StoragePathError,
  verifySignature,
} from "../../server/storage/storage.server";

const storage = createStorage(fs.mkdtempSync(path.join(os.tmpdir(), "storage-")));

describe("storage paths", () => {
  it.each([
    "../x",
    "a/../../x",
    "/etc/passwd",
    "..",
    "a\\..\\b",
    "..\\x",
    "a\0b",
    "a//b",
    "./a",
    "",
    decodeURIComponent("..%2fx"),
    decodeURIComponent("bookings%2f..%2f..%2f..%2fapp.db"),
  ])("refuses %j", (p) => {
    expect(() => storage.resolveSafe("booking-files", p)).toThrow(StoragePathError);
  });
  it("resolves ordinary paths inside the bucket", () => {
    expect(storage.resolveSafe("booking-files", "bookings/1/a.png")).toBe(
      path.join(storage.root, "booking-files", "bookings", "1", "a.png"),
    );
    // An undecoded "%2f" is only an odd file name, still inside the bucket.
    expect(storage.resolveSafe("booking-files", "..%2fx")).toBe(path.join(storage.root, "booking-files", "..%2fx"));
  });
  it("refuses unknown buckets", () => {
    expect(() => storage.resolveSafe("secrets", "a.txt")).toThrow(StoragePathError);
  });
  it("does not overwrite unless asked", () => {
    storage.put("booking-files", "bookings/1/a.txt", Buffer.from("one"));
    expect(() => storage.put("booking-files", "bookings/1/a.txt", Buffer.from("two"))).toThrow(StorageConflictError);
    expect(storage.read("booking-files", "bookings/1/a.txt")?.toString()).toBe("one");
    storage.put("booking-files", "bookings/1/a.txt", Buffer.from("two"), { overwrite: true });
    expect(storage.read("booking-files", "bookings/1/a.txt")?.toString()).toBe("two");
  });
  it("reads, stats, lists and removes", () => {
    storage.put("booking-files", "bookings/2/b.pdf", Buffer.from("pdf"));
    storage.put("booking-files", "bookings/2/c.png", new Uint8Array([1, 2, 3]));
    storage.put("booking-files", "bookings/3/d.png", Buffer.from("d"));
    expect(storage.stat("booking-files", "bookings/2/b.pdf")?.size).toBe(3);
    expect(storage.stat("booking-files", "bookings/2/none.pdf")).toBeNull();
    expect(storage.read("booking-files", "bookings/2/none.pdf")).toBeNull();
    expect(storage.list("booking-files", "bookings/2/")).toEqual(["bookings/2/b.pdf", "bookings/2/c.png"]);
    expect(storage.list("booking-files", "bookings/")).toEqual(
      expect.arrayContaining(["bookings/2/b.pdf", "bookings/3/d.png"]),
    );
    expect(storage.list("booking-files", "nothing/here/")).toEqual([]);
    expect(() => storage.list("booking-files", "../")).toThrow(StoragePathError);
    expect(() => storage.remove("booking-files", "bookings/2/none.pdf")).not.toThrow();
    expect(
      storage.removeMany("booking-files", ["bookings/2/b.pdf", "../../app.db", "bookings/2/c.png", "bookings/2/gone"]),
    ).toBe(2);
    expect(storage.list("booking-files", "bookings/2/")).toEqual([]);
    storage.remove("booking-files", "bookings/3/d.png");
    expect(storage.exists("booking-files", "bookings/3/d.png")).toBe(false);
  });
  it("leaves no temp files behind", () => {
    storage.put("template-files", "x.zip", Buffer.from("zip"));
    expect(() => storage.put("template-files", "x.zip", Buffer.from("zip2"))).toThrow(StorageConflictError);
    expect(fs.readdirSync(path.join(storage.root, "template-files"))).toEqual(["x.zip"]);
  });
  it("makes safe file names", () => {
    expect(safeFileName("../../My Logo (final).PNG")).toBe("my-logo-final.png");
    expect(safeFileName("...")).toBe("file");
    expect(safeFileName("")).toBe("file");
    expect(safeFileName("Résumé Übersicht.pdf")).toBe("resume-ubersicht.pdf");
    expect(safeFileName("C:\\Users\\me\\brand.ai")).toBe("brand.ai");
    const long = safeFileName(`${"a".repeat(300)}.sketch`);
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long.endsWith(".sketch")).toBe(true);
    for (const n of ["x y.fig", "ÄÖÜ", "\u0000evil.png", "a.b.c.PSD"])
      expect(safeFileName(n)).toMatch(/^[a-z0-9._-]{1,100}$/);
  });
  it("knows content types", () => {
    expect(contentTypeFor("a.svg")).toBe("image/svg+xml");
    expect(contentTypeFor("a.JPG")).toBe("image/jpeg");
    expect(contentTypeFor("a.zip")).toBe("application/zip");
    expect(contentTypeFor("a.pdf")).toBe("application/pdf");
    expect(contentTypeFor("a.psd")).toBe("application/octet-stream");
    expect(contentTypeFor("noext")).toBe("application/octet-stream");
  });
});

describe("signed links", () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it("verifies, expires and rejects tampering without throwing", () => {
    const url = new URL(signedUrl("s3cret", "template-files", "atelier.zip", 3600, now), "http://x");
    const exp = url.searchParams.get("exp");
    const sig = url.searchParams.get("sig");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", exp, sig, now)).toBe("ok");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", exp, sig, now + 3601_000)).toBe("expired");
    expect(verifySignature("s3cret", "template-files", "other.zip", exp, sig, now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", String(Number(exp) + 10), sig, now)).toBe(
      "invalid",
    );
    expect(verifySignature("other", "template-files", "atelier.zip", exp, sig, now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", exp, "abc", now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", "nope", sig, now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", null, null, now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", exp, `${sig}0`, now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", exp, "zz".repeat(32), now)).toBe("invalid");
    expect(
      verifySignature(
        "s3cret",
        "template-files",
        "atelier.zip",
        exp,
        sig!.slice(0, -1) + (sig!.endsWith("0") ? "1" : "0"),
        now,
      ),
    ).toBe("invalid");
    expect(verifySignature("s3cret", "booking-files", "atelier.zip", exp, sig, now)).toBe("invalid");
  });
  it("builds link shapes", () => {
    const url = signedUrl("s3cret", "booking-files", "bookings/1/my file.png", 3600, now);
    expect(url).toMatch(/^\/files\/booking-files\/bookings\/1\/my%20file\.png\?exp=\d+&sig=[0-9a-f]{64}$/);
    expect(new URL(url, "http://x").searchParams.get("exp")).toBe(String(now / 1000 + 3600));
    expect(publicUrl("template-images", "atelier-1.svg")).toBe("/files/template-images/atelier-1.svg");
  });
});
