/**
 * Issue 40's findings that only the running production build shows: each of these failed on the
 * main of 2026-11-25. One server for the file; after it, the process that served it is the first
 * one it started.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
let firstPid: number;
beforeAll(async () => {
  server = await startServer();
  firstPid = server.proc.pid!;
});
afterAll(async () => {
  expect(server.proc.pid).toBe(firstPid);
  expect(server.proc.exitCode).toBeNull();
  await server?.stop();
});

/** The server's log since `from`: every line parsed (JSON.parse throws on a line that is not JSON). */
function logSince(from: number): Record<string, unknown>[] {
  return server
    .output()
    .slice(from)
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a line outside the JSON log: ${line}`);
      }
    });
}

describe("one header of each kind", () => {
  it.each(["/pay/not-a-token", "/", "/booking?step=1", "/templates"])("%s", async (path) => {
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: "x=1" } });
    await res.arrayBuffer();
    for (const name of ["referrer-policy", "content-security-policy", "x-frame-options", "x-content-type-options"]) {
      const value = res.headers.get(name);
      expect(value, name).toBeTruthy();
      // Headers sent twice arrive joined with ", ".
      expect(value!.split(", ").length, `${name}: ${value}`).toBe(1);
    }
    if (path.startsWith("/pay/")) expect(res.headers.get("referrer-policy")).toBe("same-origin");
  });
});

describe("library errors are lines of the JSON log", () => {
  it("a garbled sign-in token: one JSON line with the request's id, no raw stack", async () => {
    const from = server.output().length;
    for (const token of ["garbage", "abc:def", "A".repeat(300), "%E0%A4%A"]) {
      const res = await fetch(`${server.url}/auth/callback`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: `token=${token}`,
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/templates?error=auth_failed");
    }
    const lines = logSince(from);
    const fromLibrary = lines.filter((l) => String(l.msg).startsWith("[console]"));
    expect(fromLibrary.length).toBeGreaterThan(0);
    for (const l of fromLibrary) expect(l.reqId).toEqual(expect.any(String));
  });
});

describe("form indexes are bounded", () => {
  it("a Settings post naming testimonial 99,999,999 is answered, and the server goes on", async () => {
    const admin = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const body = new URLSearchParams({
      section: "testimonials",
      intent: "save",
      "items[0].quote": "Wonderful to work with.",
      "items[0].name": "Ana",
      "items[99999999].quote": "x",
    });
    const res = await fetch(`${server.url}/admin/settings?section=testimonials`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.url, Cookie: admin, "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(res.status).toBeLessThan(500);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const home = await (await fetch(`${server.url}/process`)).text();
    expect(home).toContain("Wonderful to work with.");
  });
});
