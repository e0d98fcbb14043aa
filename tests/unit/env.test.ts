import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../server/env.server";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "env-"));

describe("env", () => {
  it("applies the defaults of DESIGN.md §3 in development", () => {
    const dir = tmp();
    const e = parseEnv({ DATA_DIR: dir });
    expect(e.PORT).toBe(3000);
    expect(e.APP_URL).toBe("http://localhost:3000");
    expect(e.ADMIN_EMAILS).toEqual([]);
    expect(e.CALENDLY_URL).toMatch(/^https:\/\//);
    expect(e.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/);
  });

  it("generates the development session secret once into DATA_DIR", () => {
    const dir = tmp();
    const a = parseEnv({ DATA_DIR: dir }).SESSION_SECRET;
    const b = parseEnv({ DATA_DIR: dir }).SESSION_SECRET;
    expect(a).toBe(b);
    expect(fs.readFileSync(path.join(dir, ".session-secret"), "utf8").trim()).toBe(a);
  });

  it("refuses to start in production without SESSION_SECRET and APP_URL, naming them", () => {
    expect(() => parseEnv({ NODE_ENV: "production", DATA_DIR: tmp() })).toThrowError(EnvError);
    expect(() => parseEnv({ NODE_ENV: "production", DATA_DIR: tmp() })).toThrowError(/SESSION_SECRET and APP_URL/);
    expect(() => parseEnv({ NODE_ENV: "production", DATA_DIR: tmp(), APP_URL: "https://x.example" })).toThrowError(
      /missing SESSION_SECRET/,
    );
    const ok = parseEnv({
      NODE_ENV: "production",
      DATA_DIR: tmp(),
      APP_URL: "https://x.example/",
      SESSION_SECRET: "s",
    });
    expect(ok.APP_URL).toBe("https://x.example");
  });

  it("parses the admin lists", () => {
    const e = parseEnv({ DATA_DIR: tmp(), ADMIN_EMAILS: " A@x.com, b@y.com ,", SUPER_ADMIN_EMAILS: "root@x.com" });
    expect(e.ADMIN_EMAILS).toEqual(["a@x.com", "b@y.com"]);
    expect(e.SUPER_ADMIN_EMAILS).toEqual(["root@x.com"]);
  });

  it("reads TRUST_PROXY as Express takes it, loopback by default, and refuses what is neither", () => {
    expect(parseEnv({ DATA_DIR: tmp() }).TRUST_PROXY).toBe("loopback");
    expect(parseEnv({ DATA_DIR: tmp(), TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ DATA_DIR: tmp(), TRUST_PROXY: " 10.0.0.0/8, loopback ,fd00::/8" }).TRUST_PROXY).toBe(
      "10.0.0.0/8,loopback,fd00::/8",
    );
    for (const bad of ["the-proxy", "10.0.0.0/33", "10.0.0.1/8/1", "true"]) {
      expect(() => parseEnv({ DATA_DIR: tmp(), TRUST_PROXY: bad }), bad).toThrowError(/TRUST_PROXY is not/);
    }
  });

  it("rejects a bad PORT", () => {
    expect(() => parseEnv({ DATA_DIR: tmp(), PORT: "nope" })).toThrowError(/PORT/);
  });
});
