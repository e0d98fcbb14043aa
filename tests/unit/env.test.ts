import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, envWarnings, parseEnv } from "../../server/env.server";

const SECRET = "0123456789abcdef0123456789abcdef";
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
      SESSION_SECRET: SECRET,
    });
    expect(ok.APP_URL).toBe("https://x.example");
  });

  it("checks production's settings, each problem on its own line, never echoing a secret", () => {
    const prod = (extra: Record<string, string>) => () =>
      parseEnv({
        NODE_ENV: "production",
        DATA_DIR: tmp(),
        APP_URL: "https://x.example",
        SESSION_SECRET: SECRET,
        ...extra,
      });
    expect(prod({})).not.toThrow();
    expect(prod({ SESSION_SECRET: "x" })).toThrowError(
      "SESSION_SECRET must be at least 32 characters (the output of `openssl rand -hex 32` is 64), got 1",
    );
    for (const placeholder of [
      "<output of: openssl rand -hex 32>",
      "change-me-change-me-change-me-change-me",
      "an-example-secret-that-is-long-enough",
    ])
      expect(prod({ SESSION_SECRET: placeholder }), placeholder).toThrowError(
        /^SESSION_SECRET is a placeholder, not a secret/,
      );
    expect(prod({ STRIPE_SECRET_KEY: "sk_live_1" })).toThrowError(
      /^STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET/,
    );
    expect(prod({ STRIPE_WEBHOOK_SECRET: "whsec_1" })).toThrowError(
      /^STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY/,
    );
    expect(prod({ STRIPE_SECRET_KEY: "sk_live_1", STRIPE_WEBHOOK_SECRET: "whsec_1" })).not.toThrow();
    expect(prod({ APP_URL: "https://x.example/shop" })).toThrowError(
      "APP_URL must be an origin such as https://studio.example, without a path, got 'https://x.example/shop'",
    );
    expect(prod({ ADMIN_EMAILS: "owner@x.example, not-an-address" })).toThrowError(
      "ADMIN_EMAILS must be a comma list of email addresses, got 'not-an-address'",
    );
    // Several problems: all of them, one per line.
    let message = "";
    try {
      prod({ SESSION_SECRET: "short", CALENDLY_URL: "http://calendly.com/x", SUPER_ADMIN_EMAILS: "x" })();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split("\n")).toEqual([
      "CALENDLY_URL must be an https URL (plain http only on 127.0.0.1 or localhost), got 'http://calendly.com/x'",
      "SESSION_SECRET must be at least 32 characters (the output of `openssl rand -hex 32` is 64), got 5",
      "SUPER_ADMIN_EMAILS must be a comma list of email addresses, got 'x'",
    ]);
    expect(message).not.toContain("short");
  });

  it("takes plain http for the calendar only on a loopback host", () => {
    expect(parseEnv({ DATA_DIR: tmp(), CALENDLY_URL: "http://127.0.0.1:9/c" }).CALENDLY_URL).toBe(
      "http://127.0.0.1:9/c",
    );
    expect(() => parseEnv({ DATA_DIR: tmp(), CALENDLY_URL: "http://cal.example/c" })).toThrowError(
      /^CALENDLY_URL must be an https URL/,
    );
  });

  it("checks CALENDLY_URL as a URL: a user name before '@' does not make a host loopback", () => {
    for (const ok of ["http://localhost:9/c", "http://127.3.2.1/c", "http://[::1]:9/c", "https://cal.example/c"])
      expect(parseEnv({ DATA_DIR: tmp(), CALENDLY_URL: ok }).CALENDLY_URL, ok).toBe(ok);
    expect(() => parseEnv({ DATA_DIR: tmp(), CALENDLY_URL: "http://localhost:1@evil.example/x" })).toThrowError(
      new EnvError("CALENDLY_URL must not hold a user name or password"),
    );
    expect(() => parseEnv({ DATA_DIR: tmp(), CALENDLY_URL: "http://localhost.evil.example/x" })).toThrowError(
      /^CALENDLY_URL must be an https URL \(plain http only on 127.0.0.1 or localhost\)/,
    );
  });

  it("checks BACKUP_S3_ENDPOINT at start: https, plain http only on this machine, no user or password", () => {
    const s3 = (BACKUP_S3_ENDPOINT: string) => () =>
      parseEnv({
        DATA_DIR: tmp(),
        BACKUP_S3_ENDPOINT,
        BACKUP_S3_BUCKET: "b",
        BACKUP_S3_ACCESS_KEY_ID: "id",
        BACKUP_S3_SECRET_ACCESS_KEY: "key",
      });
    for (const ok of ["https://s3.eu-central-1.amazonaws.com", "http://127.0.0.1:4569", "http://localhost:9000"])
      expect(s3(ok), ok).not.toThrow();
    for (const bad of [
      "ftp://s3.example.com",
      "file:///srv/bucket",
      "http://s3.example.com",
      "http://localhost:1@s3.example.com",
    ]) {
      const message = (() => {
        try {
          s3(bad)();
          return "";
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message.split("\n"), bad).toHaveLength(1);
      expect(message, bad).toMatch(/^BACKUP_S3_ENDPOINT must /);
    }
    expect(s3("http://s3.example.com")).toThrowError(
      new EnvError(
        "BACKUP_S3_ENDPOINT must be an https URL (plain http only on 127.0.0.1 or localhost), got 'http://s3.example.com'",
      ),
    );
    // A secret in it is not echoed.
    expect(s3("https://id:hunter2@s3.example.com")).toThrowError(
      new EnvError(
        "BACKUP_S3_ENDPOINT must not hold a user name or password (the keys go in BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY)",
      ),
    );
  });

  it("warns of a Stripe test key in production", () => {
    const e = parseEnv({
      NODE_ENV: "production",
      DATA_DIR: tmp(),
      APP_URL: "https://x.example",
      SESSION_SECRET: SECRET,
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1",
    });
    expect(envWarnings(e)).toEqual([
      "STRIPE_SECRET_KEY is a test key (sk_test_…) in production: no real payment will be taken",
    ]);
  });

  it("listens on loopback behind a proxy unless HOST says otherwise", () => {
    expect(parseEnv({ DATA_DIR: tmp() }).HOST).toBeUndefined();
    expect(parseEnv({ DATA_DIR: tmp(), TRUST_PROXY: "loopback" }).HOST).toBe("127.0.0.1");
    expect(parseEnv({ DATA_DIR: tmp(), TRUST_PROXY: "loopback", HOST: "0.0.0.0" }).HOST).toBe("0.0.0.0");
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

  it("names every problem at once, a value of the wrong kind among them", () => {
    expect(() =>
      parseEnv({
        NODE_ENV: "production",
        DATA_DIR: tmp(),
        APP_URL: "https://x.example",
        SESSION_SECRET: "<output of: openssl rand -hex 32>",
        PORT: "abc",
        STRIPE_SECRET_KEY: "sk_live_1",
      }),
    ).toThrowError(
      new EnvError(
        [
          "PORT must be a number from 1 to 65535, got 'abc'",
          "SESSION_SECRET is a placeholder, not a secret: set it to the output of `openssl rand -hex 32`",
          "STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: Stripe's webhooks (payments, refunds) would all be refused; set both, or neither",
        ].join("\n"),
      ),
    );
    // In development the second pass writes no secret either.
    const dir = tmp();
    expect(() => parseEnv({ DATA_DIR: dir, PORT: "abc" })).toThrowError(EnvError);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("names a bad PORT in one line", () => {
    expect(() => parseEnv({ DATA_DIR: tmp(), PORT: "abc" })).toThrowError(
      new EnvError("PORT must be a number from 1 to 65535, got 'abc'"),
    );
    expect(() => parseEnv({ DATA_DIR: tmp(), PORT: "70000", BACKUP_KEEP: "0" })).toThrowError(
      new EnvError(
        "PORT must be a number from 1 to 65535, got '70000'\nBACKUP_KEEP must be a whole number from 1 to 1000, got '0'",
      ),
    );
  });
});
