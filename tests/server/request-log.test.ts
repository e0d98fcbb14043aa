/**
 * The server's log as an owner reads it (issue 33.3, decision 027): every request is one JSON line
 * (time, request id, method, path without secrets, status, duration, bytes) and nothing in the log
 * names a person or carries a token; LOG_FORMAT=pretty writes lines for humans; an error is logged
 * with its message and a stack that points at the sources.
 */
import SQLite from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingSteps, serversPerTest, startServer, type RunningServer } from "../helpers/server";

type Line = Record<string, unknown> & { msg?: string; time?: string; level?: number };

/** Every line the server wrote, parsed: each one must be JSON. */
function lines(server: RunningServer): Line[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
}

const requestLines = (server: RunningServer, id: string) =>
  lines(server).filter((l) => l.reqId === id && "status" in l);

const SECRETS = {
  email: "ada.lovelace@example.com",
  name: "Ada Lovelace",
  ip: "203.0.113.9",
  agent: "AgentOfSecrets/1.0",
  cookie: "COOKIESECRET123",
  setup: "SETUPTOKEN123",
  pay: "PAYTOKEN123",
  callback: "CALLBACKTOKEN123",
  sig: "SIGNATURE123",
  clientId: "client-chosen-id",
};

/** The server of the tests that need no setting of their own. */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("one JSON line per request, and nothing personal in the log", () => {
  const headers = {
    "X-Forwarded-For": SECRETS.ip,
    "User-Agent": SECRETS.agent,
    Cookie: `studio_other=${SECRETS.cookie}`,
    "X-Request-Id": SECRETS.clientId,
  };
  const step1 = bookingSteps(SECRETS.email)[0][1] as Record<string, string>;

  async function asset(): Promise<string> {
    const html = await (await fetch(server.url + "/")).text();
    const src = /\/build\/[^"]+\.js/.exec(html)?.[0];
    if (!src) throw new Error("no script in the home page");
    return src;
  }

  it("logs each kind of request once, with its fields", async () => {
    const script = await asset();
    const requests: { path: string; init?: RequestInit; status: number; logged: string }[] = [
      { path: "/", status: 200, logged: "/" },
      { path: "/booking?step=1", status: 200, logged: "/booking?step=1" },
      { path: script, status: 200, logged: script },
      { path: "/favicon.svg", status: 200, logged: "/favicon.svg" },
      {
        path: "/booking?index&step=1",
        init: { method: "POST", body: new URLSearchParams({ ...step1, name: SECRETS.name }) },
        status: 302,
        logged: "/booking?index&step=1",
      },
      { path: `/setup?token=${SECRETS.setup}`, status: 404, logged: "/setup?token=[redacted]" },
      { path: `/pay/${SECRETS.pay}`, status: 404, logged: "/pay/:token" },
      { path: `/auth/callback?token=${SECRETS.callback}`, status: 200, logged: "/auth/callback?token=[redacted]" },
      {
        path: `/files/booking-files/draft/${SECRETS.name.replace(" ", "_")}.pdf?exp=1&sig=${SECRETS.sig}`,
        status: 403,
        logged: "/files/booking-files/:path?exp=[redacted]&sig=[redacted]",
      },
      { path: `/no-such-page?email=${SECRETS.email}`, status: 404, logged: "/no-such-page?email=[redacted]" },
    ];
    const seen: { id: string; r: (typeof requests)[number]; bytes: number }[] = [];
    for (const r of requests) {
      const h = new Headers(headers);
      if (r.init?.method === "POST") h.set("Origin", server.url);
      const res = await fetch(server.url + r.path, { ...r.init, headers: h, redirect: "manual" });
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.status, r.path).toBe(r.status);
      const id = res.headers.get("x-request-id") ?? "";
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      seen.push({ id, r, bytes: body.length });
    }
    expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
    await expect.poll(() => seen.every((s) => requestLines(server, s.id).length === 1), { timeout: 5000 }).toBe(true);
    for (const { id, r } of seen) {
      const [line] = requestLines(server, id);
      expect(line, r.path).toMatchObject({
        reqId: id,
        method: r.init?.method ?? "GET",
        path: r.logged,
        status: r.status,
      });
      expect(new Date(String(line.time)).toISOString()).toBe(line.time);
      expect(line.ms).toEqual(expect.any(Number));
      // The answer's bytes on the wire, headers included (compressed where it was).
      expect(line.bytes, r.path).toBeGreaterThan(r.status === 302 ? 100 : 500);
      // Nothing else about the request: no headers, no address.
      expect(Object.keys(line).sort()).toEqual([
        "bytes",
        "level",
        "method",
        "ms",
        "msg",
        "path",
        "reqId",
        "status",
        "time",
      ]);
    }
    const out = server.output();
    for (const [what, secret] of Object.entries(SECRETS)) expect(out, what).not.toContain(secret);
    expect(out).not.toMatch(/127\.0\.0\.1|::1|::ffff/);
  });

  it("every line the server wrote is JSON", () => {
    expect(lines(server).length).toBeGreaterThan(3);
    expect(lines(server).every((l) => typeof l.time === "string" && typeof l.msg === "string")).toBe(true);
  });
});

describe("LOG_FORMAT and errors", () => {
  const servers = serversPerTest();

  it("LOG_FORMAT=pretty writes lines for humans", async () => {
    const server = await servers.start({ env: { LOG_FORMAT: "pretty" } });
    await (await fetch(server.url + "/packages")).arrayBuffer();
    await expect.poll(() => server.output(), { timeout: 5000 }).toMatch(/INFO.*GET \/packages 200/);
    const line = server
      .output()
      .split("\n")
      .find((l) => l.includes("GET /packages 200"))!;
    expect(() => JSON.parse(line)).toThrow();
    expect(line).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/packages 200 \{.*"ms":\d+/);
  });

  it("a LOG_FORMAT it does not know is refused in one line", async () => {
    await expect(startServer({ env: { LOG_FORMAT: "xml" } })).rejects.toThrow(
      /LOG_FORMAT must be json or pretty, got 'xml'/,
    );
  });

  it("an error is logged with its message and a stack through the sources, with the request's id", async () => {
    // The owner's saved legal text, damaged on disk: the page falls back to the sample's and says why.
    const db = new SQLite(path.join(server.dataDir, "app.db"));
    db.pragma("busy_timeout = 5000");
    db.prepare("insert or replace into studio_settings (section, data, sample) values ('legal', '{not json', 0)").run();
    db.prepare("update catalogue_version set version = version + 1 where id = 1").run();
    db.close();
    const res = await fetch(server.url + "/terms");
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    const error = () => lines(server).find((l) => String(l.msg).includes("the saved legal settings are not JSON"));
    await expect.poll(error, { timeout: 5000 }).toBeTruthy();
    const line = error()!;
    const err = line.err as { type: string; message: string; stack: string };
    expect(line.level).toBe(50);
    expect(line.reqId).toBe(id);
    expect(err.type).toBe("SyntaxError");
    expect(err.message).toMatch(/JSON/);
    // Frames name the TypeScript source and its line, not the bundle's minified position.
    expect(err.stack).toMatch(/server\/studio\/studio\.server\.ts:\d+:\d+/);
    expect(err.stack).not.toMatch(/build\/(index\.js|server\.cjs):\d+/);
  });
});
