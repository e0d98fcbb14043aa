import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createStorage,
  safeFileName,
  signedUrl,
  StorageConflictError,
  StoragePathError,
  verifySignature,
} from "../../server/storage/storage.server";

const storage = createStorage(fs.mkdtempSync(path.join(os.tmpdir(), "storage-")));

describe("storage paths", () => {
  it.each(["../x", "a/../../x", "/etc/passwd", "..", "a\\..\\b", "a\0b", "a//b", "./a"])("refuses %j", (p) => {
    expect(() => storage.resolveSafe("booking-files", p)).toThrow(StoragePathError);
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
  it("makes safe file names", () => {
    expect(safeFileName("../../My Logo (final).PNG")).toBe("my-logo-final.png");
    expect(safeFileName("...")).toBe("file");
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
    expect(verifySignature("s3cret", "template-files", "atelier.zip", String(Number(exp) + 10), sig, now)).toBe("invalid");
    expect(verifySignature("other", "template-files", "atelier.zip", exp, sig, now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", exp, "abc", now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", "nope", sig, now)).toBe("invalid");
    expect(verifySignature("s3cret", "template-files", "atelier.zip", null, null, now)).toBe("invalid");
  });
});
