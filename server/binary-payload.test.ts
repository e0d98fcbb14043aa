import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendPayload, openPayload } from "./binary-payload.js";

describe("the binary's payload", () => {
  let dir = "";
  let executable = "";
  const image = Buffer.from("\x7fELF and the rest of an executable image");
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-payload-"));
    executable = path.join(dir, "studio");
    fs.writeFileSync(executable, image);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads back every file appended after the image, and leaves the image as it was", () => {
    // Bigger than one read chunk (64 KB), so reading in chunks is exercised.
    const bundle = "x".repeat(200_000) + "the end";
    const addon = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 256));
    fs.writeFileSync(path.join(dir, "addon.node"), addon);
    appendPayload(executable, [
      { name: "app.js", data: Buffer.from(bundle) },
      { name: "build.json", data: Buffer.from('{"id":"0123456789abcdef"}') },
      { name: "addon.node", file: path.join(dir, "addon.node") },
      { name: "empty", data: Buffer.alloc(0) },
    ]);
    expect(fs.readFileSync(executable).subarray(0, image.length)).toEqual(image);

    const payload = openPayload(executable);
    expect(payload.names()).toEqual(["app.js", "build.json", "addon.node", "empty"]);
    expect(payload.offsetOf("app.js")).toBe(image.length);
    expect(payload.ascii("app.js")).toBe(bundle);
    expect(JSON.parse(payload.bytes("build.json").toString())).toEqual({ id: "0123456789abcdef" });
    payload.copyTo("addon.node", path.join(dir, "extracted.node"), 0o755);
    expect(fs.readFileSync(path.join(dir, "extracted.node"))).toEqual(addon);
    expect(fs.statSync(path.join(dir, "extracted.node")).mode & 0o777).toBe(0o755);
    expect(payload.ascii("empty")).toBe("");
    expect(() => payload.bytes("missing")).toThrow("the binary's payload has no missing");
    payload.close();
  });

  it("says so when a file carries no payload", () => {
    expect(() => openPayload(executable)).toThrow(`${executable} carries no studio payload`);
    fs.writeFileSync(executable, "");
    expect(() => openPayload(executable)).toThrow("carries no studio payload");
  });

  it("says so when the download was cut short", () => {
    appendPayload(executable, [{ name: "app.js", data: Buffer.from("y".repeat(100_000)) }]);
    fs.truncateSync(executable, fs.statSync(executable).size - 1);
    expect(() => openPayload(executable)).toThrow("an incomplete copy");
  });
});
