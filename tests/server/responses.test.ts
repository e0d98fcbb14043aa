/**
 * How the running server writes Remix's answers (server/http/remix-handler.ts): documents and JSON
 * whole, gzipped when the client accepts it, with a Content-Length that matches the bytes sent;
 * cookies, redirects and HEAD as Remix made them; files still streamed.
 */
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingSteps, sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
let buyer: string;
beforeAll(async () => {
  server = await startServer();
  buyer = await sessionCookie(server.dataDir, "responses@example.com");
});
afterAll(async () => {
  await server?.stop();
});

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A request over plain node:http: no automatic decompression, the bytes as sent. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET", body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(server.url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("documents rendered per request", () => {
  it("are gzipped whole for a client that accepts gzip, with a matching Content-Length and Vary", async () => {
    const res = await raw("/packages", { cookie: buyer, "accept-encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    const html = zlib.gunzipSync(res.body).toString("utf8");
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("</html>");
    expect(html).toMatch(/<h1[^>]*>[^<]/);
  });

  it("are sent as plain HTML to a client that does not accept gzip", async () => {
    const res = await raw("/packages", { cookie: buyer });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.body.toString("utf8")).toContain("</html>");
  });

  it("keep their status: an unknown template is a gzipped 404 page", async () => {
    const res = await raw("/templates/no-such-template", { "accept-encoding": "gzip" });
    expect(res.status).toBe(404);
    expect(zlib.gunzipSync(res.body).toString("utf8")).toContain("Template not found");
  });

  it("hand the browser their data once, after the document, with the request's nonce", async () => {
    const res = await raw("/packages", { cookie: buyer });
    const html = res.body.toString("utf8");
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
    expect(nonce).toBeTruthy();
    const tail = html.slice(html.indexOf("</html>"));
    expect(tail.match(/streamController\.enqueue\(/g)).toHaveLength(1);
    expect(tail.match(/streamController\.close\(\)/g)).toHaveLength(1);
    for (const tag of tail.match(/<script[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    // Rendered in one pass: no part was left for the browser to finish.
    expect(html).not.toContain("<!--$!-->");
  });

  it("render a part that loads lazily (the sign-in dialog) on its first request too", async () => {
    const fresh = await startServer();
    try {
      // Any cookie: rendered for this request, not taken from the page cache.
      const res = await fetch(`${fresh.url}/templates?signin=required`, { headers: { cookie: "visit=1" } });
      const html = await res.text();
      expect(res.status).toBe(200);
      expect(html).toContain('aria-labelledby="signin-dialog-title"');
      expect(html).not.toContain("<!--$!-->");
      expect(html).toContain("streamController.close()");
    } finally {
      await fresh.stop();
    }
  });

  it("hold the site's scripts until the first paint, but not the console's", async () => {
    const page = (await raw("/packages", { cookie: buyer })).body.toString("utf8");
    expect(page.match(/<template data-after-paint>/g)).toHaveLength(2);
    const admin = await sessionCookie(server.dataDir, "responses-console@example.com", "admin");
    const consolePage = (await raw("/admin", { cookie: admin })).body.toString("utf8");
    expect(consolePage).toContain('<link rel="modulepreload"');
    expect(consolePage).not.toContain("data-after-paint");
  });

  it("answer HEAD with the headers and no body", async () => {
    const res = await raw("/packages", { cookie: buyer, "accept-encoding": "gzip" }, "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body.length).toBe(0);
  });
});

describe("other answers", () => {
  it("tRPC JSON is gzipped whole and parses", async () => {
    const res = await raw("/api/trpc/templates.list", { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    const json = JSON.parse(zlib.gunzipSync(res.body).toString("utf8"));
    expect(JSON.stringify(json)).toContain("atelier");
  });

  it("a small answer is not gzipped", async () => {
    const res = await raw("/healthz", { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
  });

  it("a booking step's redirect carries the draft cookie and its Location", async () => {
    const body = new URLSearchParams(bookingSteps("responses@example.com")[0][1] as Record<string, string>).toString();
    const res = await raw(
      "/booking?index&step=1",
      { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      "POST",
      body,
    );
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/\/booking\?step=2$/);
    const cookies = res.headers["set-cookie"] ?? [];
    expect(cookies.some((c) => c.startsWith("__booking_draft="))).toBe(true);
  });

  it("a streamed CSV export is gzipped on the way for a client that accepts gzip, plain otherwise", async () => {
    const admin = await sessionCookie(server.dataDir, "responses-admin@example.com", "admin");
    const gz = await raw("/admin/export/bookings.csv", { cookie: admin, "accept-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(gz.headers["content-type"]).toMatch(/text\/csv/);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toMatch(/Accept-Encoding/i);
    const csv = zlib.gunzipSync(gz.body).toString("utf8");
    const plain = await raw("/admin/export/bookings.csv", { cookie: admin });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(csv);
    expect(csv.split("\n")[0]).toMatch(/,/);
  });

  it("built assets are still compressed by the compression middleware", async () => {
    const page = await raw("/packages", { cookie: buyer });
    const scripts = [
      ...page.body.toString("utf8").matchAll(/<link rel="modulepreload" href="(\/build\/[^"]+\.js)"/g),
    ].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(3);
    let gzipped = 0;
    for (const script of scripts) {
      const res = await raw(script, { "accept-encoding": "gzip" });
      expect(res.status).toBe(200);
      expect(res.headers["cache-control"]).toMatch(/immutable/);
      if (res.headers["content-encoding"] === "gzip") {
        gzipped++;
        expect(zlib.gunzipSync(res.body).toString("utf8").length).toBeGreaterThan(1024);
      }
    }
    expect(gzipped).toBeGreaterThan(0);
  });
});
