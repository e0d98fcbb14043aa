/**
 * Reading a calendar feed over HTTP (issue 43.3, 43.9), against a local server: a conditional
 * request answered 304, and each refusal named: not http(s), credentials in the address, a web
 * page, an error status, over 10 MB (declared or counted while it streams), no answer in time, a
 * body that stops arriving.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeedError, fetchFeed, feedUrl } from "../../server/calendar/feed-fetch.server";

const ICS = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";
let base = "";
let served = 0;
const server = http.createServer((req, res) => {
  served++;
  switch (req.url) {
    case "/feed.ics":
      if (req.headers["if-none-match"] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, {
        "content-type": "text/calendar",
        etag: '"v1"',
        "last-modified": "Mon, 01 Mar 2027 10:00:00 GMT",
      });
      return void res.end(ICS);
    case "/page":
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return void res.end("<!doctype html><title>Sign in</title>");
    case "/page-as-text":
      res.writeHead(200, { "content-type": "text/plain" });
      return void res.end("<!doctype html><title>Sign in</title>");
    case "/gone":
      return void res.writeHead(404).end();
    case "/declared-huge":
      res.writeHead(200, { "content-type": "text/calendar", "content-length": String(20 * 1024 * 1024) });
      return void res.end();
    case "/streamed-huge": {
      res.writeHead(200, { "content-type": "text/calendar" });
      const chunk = Buffer.alloc(256 * 1024, "A");
      let sent = 0;
      const more = () => {
        while (sent < 3 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      return more();
    }
    case "/silent":
      return; // never answers
    case "/stops":
      res.writeHead(200, { "content-type": "text/calendar" });
      return void res.write("BEGIN:VCALENDAR\r\n"); // and nothing more
    default:
      res.writeHead(500).end();
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});

const none = { etag: null, lastModified: null };
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "no refusal",
    (e: unknown) => (e instanceof FeedError ? e.message : `not a FeedError: ${String(e)}`),
  );

describe("a feed's address", () => {
  it("takes http(s) and webcal://, and refuses anything else or credentials in it", () => {
    expect(feedUrl("webcal://calendar.example/basic.ics").href).toBe("https://calendar.example/basic.ics");
    expect(() => feedUrl("file:///etc/passwd")).toThrow("The feed's address must start with https:// (or http://)");
    expect(() => feedUrl("javascript:alert(1)")).toThrow(FeedError);
    expect(() => feedUrl("not an address")).toThrow("The feed's address is not a web address");
    expect(() => feedUrl("https://me:secret@calendar.example/x.ics")).toThrow(/no user name or password/);
    expect(() => feedUrl(`https://calendar.example/${"a".repeat(2_000)}.ics`)).toThrow(
      "The feed's address is longer than 2000 characters",
    );
  });
});

describe("reading it", () => {
  it("gives the text with its validators, and asks again with them: 304 is no change", async () => {
    const first = await fetchFeed(`${base}/feed.ics`, none);
    expect(first).toEqual({ changed: true, text: ICS, etag: '"v1"', lastModified: "Mon, 01 Mar 2027 10:00:00 GMT" });
    expect(await fetchFeed(`${base}/feed.ics`, { etag: '"v1"', lastModified: null })).toEqual({ changed: false });
  });

  it("names each refusal", async () => {
    expect(await refusal(fetchFeed(`${base}/page`, none))).toMatch(/web page, not a calendar/);
    expect(await refusal(fetchFeed(`${base}/page-as-text`, none))).toMatch(/web page, not a calendar/);
    expect(await refusal(fetchFeed(`${base}/gone`, none))).toBe(
      "The feed answered 404 (not found: is the address current?)",
    );
    expect(await refusal(fetchFeed(`${base}/declared-huge`, none))).toBe("The feed is larger than 10 MB");
    // Counted while it streams (no Content-Length): a 2 MB limit here, 10 MB in the product.
    expect(await refusal(fetchFeed(`${base}/streamed-huge`, none, { maxBytes: 2 * 1024 * 1024 }))).toBe(
      "The feed is larger than 2 MB",
    );
    expect(await refusal(fetchFeed(`${base}/silent`, none, { timeoutMs: 300 }))).toBe(
      "The feed did not answer within 0.3 s",
    );
    expect(await refusal(fetchFeed(`${base}/stops`, none, { timeoutMs: 300 }))).toBe(
      "The feed did not answer within 0.3 s",
    );
    expect(await refusal(fetchFeed("http://127.0.0.1:1/x.ics", none))).toBe(
      "The feed could not be reached (127.0.0.1:1)",
    );
    expect(served).toBeGreaterThan(0);
  });
});
