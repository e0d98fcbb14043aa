/**
 * Issue 20.5: stored files go out through `send`: Range requests (a large archive resumes),
 * ETag and 304, HEAD; the signature and purchase checks still decide first.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadUrl } from "../../server/shop/downloads.server";
import { signedUrl } from "../../server/storage/storage.server";
import { SERVER_SECRET, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
let purchaseId = "";

beforeAll(async () => {
  server = await startServer();
  const db = new SQLite(path.join(server.dataDir, "app.db"));
  try {
    const tpl = db.prepare("select id from templates where slug = 'spark'").get() as { id: string };
    db.prepare("insert into users (id, email) values ('u-files', 'files@example.com')").run();
    purchaseId = crypto.randomUUID();
    db.prepare(
      "insert into purchases (id, user_id, template_id, amount_paid, license_key) values (?, 'u-files', ?, 6900, 'FILES-KEY')",
    ).run(purchaseId, tpl.id);
  } finally {
    db.close();
  }
});

afterAll(async () => {
  await server.stop();
});

describe("stored files through send", () => {
  it("a template archive answers Range requests with 206 and the bytes asked for, HEAD with its length", async () => {
    const archive = fs.readFileSync(path.join(server.dataDir, "storage", "template-files", "spark.zip"));
    const link = `${server.url}${downloadUrl(SERVER_SECRET, purchaseId, "spark.zip")}`;
    const whole = await fetch(link);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-disposition")).toContain('attachment; filename="spark.zip"');
    expect(whole.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.from(await whole.arrayBuffer()).equals(archive)).toBe(true);

    const part = await fetch(link, { headers: { Range: "bytes=10-109" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-109/${archive.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(archive.subarray(10, 110))).toBe(true);

    const head = await fetch(link, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(archive.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("a public image has an ETag, and asking again with it gets 304", async () => {
    const first = await fetch(`${server.url}/files/template-images/spark-1.svg`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toContain("image/svg+xml");
    expect(first.headers.get("content-security-policy")).toContain("sandbox");
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    // As a browser revalidates its cache (fetch() would add Cache-Control: no-cache to a conditional request).
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${server.url}/files/template-images/spark-1.svg`, { headers: { "If-None-Match": etag! } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on("error", reject);
    });
    expect(status).toBe(304);
  });

  it("the checks still come first: no signature, a tampered one, a path out of the bucket, an unknown bucket", async () => {
    const bookingFile = `${server.url}${signedUrl(SERVER_SECRET, "booking-files", "bookings/none/1-a.png")}`;
    expect((await fetch(bookingFile)).status).toBe(404);
    expect((await fetch(`${server.url}/files/booking-files/bookings/x/1-a.png`)).status).toBe(403);
    const tampered = new URL(`${server.url}${downloadUrl(SERVER_SECRET, purchaseId, "spark.zip")}`);
    tampered.searchParams.set("sig", "0".repeat(64));
    const refused = await fetch(tampered, { headers: { Range: "bytes=0-9" } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-range")).toBeNull();
    expect((await fetch(`${server.url}/files/template-images/..%2F..%2Fapp.db`)).status).toBe(404);
    expect((await fetch(`${server.url}/files/nope/x.png`)).status).toBe(404);
  });
});
