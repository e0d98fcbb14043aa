import SQLite from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

function rowCounts(dataDir: string): Record<string, number> {
  const db = new SQLite(path.join(dataDir, "app.db"), { readonly: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [name, (db.prepare(`select count(*) n from "${name}"`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

it("GET never changes state: visiting every kind of page leaves every table as it was", async () => {
  const paths = [
    "/",
    "/packages",
    "/work",
    "/work/1",
    "/process",
    "/templates",
    "/templates/atelier",
    "/templates/atelier?signin=required",
    "/templates/nope",
    "/booking",
    "/booking?tier=growth&addOns=crm-integration&campaign=1&utm_source=newsletter",
    "/booking?step=4",
    "/booking/success",
    "/auth/email",
    "/auth/callback?token=forged",
    "/setup",
    "/setup?token=forged",
    "/dashboard",
    "/admin",
    "/api/trpc/templates.list",
    "/api/trpc/templates.bySlug?input=%7B%22slug%22%3A%22atelier%22%7D",
    "/sitemap.xml",
    "/robots.txt",
    "/healthz",
  ];
  const before = rowCounts(server.dataDir);
  for (const p of paths) {
    for (const accept of ["text/html", "*/*"]) {
      const res = await fetch(server.url + p, {
        redirect: "manual",
        headers: { Accept: accept, Referer: "https://elsewhere.example/" },
      });
      expect(res.status, p).toBeLessThan(500);
      expect(res.headers.get("set-cookie") ?? "", `${p} sets no cookie`).not.toContain("__booking_draft");
      await res.arrayBuffer();
    }
  }
  expect(rowCounts(server.dataDir)).toEqual(before);
});
