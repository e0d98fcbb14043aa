/**
 * "Export CSV" of the console (issue 19.6) against the production build: admins only, every row
 * of the view (not only a page), RFC 4180 with formulas neutralised, streamed.
 */
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
  const db = new SQLite(path.join(server.dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  const insert = db.prepare(
    `insert into bookings (id, email, full_name, company_name, package_type, package_price, total_amount, desired_start_date, status, created_at)
     values (?, ?, ?, ?, 'growth', 850000, 850000, '2027-01-10', ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < 1200; i++)
      insert.run(
        `x-${i}`,
        `c${i}@example.com`,
        `Client ${i}`,
        `Export Co ${i}`,
        i % 2 ? "pending" : "completed",
        new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      );
    insert.run(
      "evil",
      "evil@example.com",
      '=HYPERLINK("http://evil.example","click")',
      'Comma, Quote "Co"',
      "pending",
      "2026-06-01T00:00:00.000Z",
    );
  })();
  db.close();
});
afterAll(async () => {
  await server?.stop();
});

describe("GET /admin/export/bookings.csv", () => {
  it("refuses signed-out visitors (401) and buyers (403)", async () => {
    expect((await fetch(`${server.url}/admin/export/bookings.csv`)).status).toBe(401);
    const buyer = await sessionCookie(server.dataDir, "buyer@example.com");
    expect((await fetch(`${server.url}/admin/export/bookings.csv`, { headers: { Cookie: buyer } })).status).toBe(403);
    expect((await fetch(`${server.url}/admin/export/purchases.csv`, { headers: { Cookie: buyer } })).status).toBe(403);
  });

  it("streams every matching row with a header, quoted and neutralised, for the admin", async () => {
    const admin = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const res = await fetch(`${server.url}/admin/export/bookings.csv`, { headers: { Cookie: admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="bookings-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("content-length")).toBeNull(); // streamed, not buffered
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const lines = (await res.text()).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      "Created,Name,Email,Phone,Company,Package,Total (USD),Paid (USD),Status,Preferred start,Timeline,Website,Goal,Source,utm_source,utm_medium,utm_campaign,Referrer",
    );
    expect(lines).toHaveLength(1 + 1201);
    const evil = lines.find((l) => l.includes("evil@example.com"))!;
    expect(evil).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(evil).toContain(`"Comma, Quote ""Co"""`);
  });

  it("exports the view's search and status, not only its page", async () => {
    const admin = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const res = await fetch(`${server.url}/admin/export/bookings.csv?status=completed&q=Export%20Co&page=3`, {
      headers: { Cookie: admin },
    });
    const lines = (await res.text()).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(1 + 600);
    expect(lines.slice(1).every((l) => l.includes(",completed,"))).toBe(true);
  });

  it("purchases export has its own header", async () => {
    const admin = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const res = await fetch(`${server.url}/admin/export/purchases.csv`, { headers: { Cookie: admin } });
    expect(res.status).toBe(200);
    expect((await res.text()).split("\r\n")[0]).toBe("Date,Email,Name,Template,Amount (USD),Status,License key");
  });
});
