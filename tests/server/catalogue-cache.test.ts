/**
 * Issue 20.4: the page cache follows the catalogue's version in the database, so a change made by
 * an operator command in another process reaches the running server's cached pages at once.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SERVER_SECRET, serversPerTest, sessionCookie } from "../helpers/server";

const root = path.resolve(__dirname, "../..");
const { start } = serversPerTest();

/** `seed --force` in another process: the operator command that puts the missing samples back. */
function seedForce(server: { url: string; dataDir: string }) {
  return promisify(execFile)(process.execPath, ["server/cli-main.js", "seed", "--force"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      APP_URL: server.url,
      DATA_DIR: server.dataDir,
      SESSION_SECRET: SERVER_SECRET,
    },
    encoding: "utf8",
  });
}

function writeDb(dataDir: string, sql: string) {
  const db = new SQLite(path.join(dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe("the page cache and the catalogue's version", () => {
  it("keeps serving a cached page through writes that announce nothing, and drops it when an operator command changes the catalogue", async () => {
    const server = await start();
    const page = async () => (await fetch(`${server.url}/templates`)).text();
    const first = await page();
    expect(first).toContain("Atelier");
    expect(first).toContain("Spark");

    // A write that does not announce itself (by hand, in another process): the cached page stays.
    writeDb(
      server.dataDir,
      "update templates set name = 'Atelier Renamed' where slug = 'atelier'; delete from templates where slug = 'spark';",
    );
    expect(await page()).toBe(first);

    // `seed --force` in another process puts Spark back and announces the change: the next
    // request renders again and shows both writes. (Not blocking this process meanwhile: fetch lets its
    // kept-alive connection go on time, instead of reusing one the server closed while it waited.)
    const { stdout: out } = await seedForce(server);
    expect(out).toContain("seeded 1 sample templates");
    const after = await page();
    expect(after).toContain("Atelier Renamed");
    expect(after).toContain("Spark");
  });
});

describe("the shop's public tRPC reads (issue 42.2)", () => {
  it("are kept by the catalogue's version with an ETag a conditional request gets a 304 for; a console save and an operator command are seen at the next request", async () => {
    const server = await start();
    const list = (headers: Record<string, string> = {}) => fetch(`${server.url}/api/trpc/templates.list`, { headers });

    const first = await list();
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"\d+-[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    // The same security headers as any answer, with a nonce of its own.
    expect(first.headers.get("content-security-policy")).toMatch(/'nonce-[\w+/=]+'/);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await first.text();
    expect(body).toContain('"slug":"atelier"');

    // Asked again with the tag: 304, no body, the same tag.
    const again = await list({ "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    expect((await list({ "If-None-Match": 'W/"0-other"' })).status).toBe(200);

    // A write that announces nothing is not seen (the answer is kept)...
    writeDb(server.dataDir, "update templates set name = 'Atelier Renamed' where slug = 'atelier';");
    expect(await (await list()).text()).toBe(body);

    // ...a save in the console is, at the next request, with a new tag (it shows the rename too).
    const admin = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const atelierOf = (json: string) =>
      (JSON.parse(json) as { result: { data: { id: string; slug: string; featured: boolean }[] } }).result.data.find(
        (t) => t.slug === "atelier",
      )!;
    const { id, featured } = atelierOf(body);
    const saved = await fetch(`${server.url}/api/trpc/admin.templates.setFeatured`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url, Cookie: admin },
      body: JSON.stringify({ id, featured: !featured }),
    });
    expect(saved.status).toBe(200);
    const afterSave = await list({ "If-None-Match": etag });
    expect(afterSave.status).toBe(200);
    expect(afterSave.headers.get("etag")).not.toBe(etag);
    const savedBody = await afterSave.text();
    expect(atelierOf(savedBody).featured).toBe(!featured);
    expect(savedBody).toContain("Atelier Renamed");

    // ...and so is an operator command in another process.
    const sparkOf = (json: string) =>
      (JSON.parse(json) as { result: { data: { id: string; slug: string }[] } }).result.data.find(
        (t) => t.slug === "spark",
      )?.id;
    const sparkBefore = sparkOf(savedBody);
    expect(sparkBefore).toBeTruthy();
    // Spark deleted by hand (not announced: still listed), then put back by `seed --force`, as a new row.
    writeDb(server.dataDir, "delete from templates where slug = 'spark';");
    expect(sparkOf(await (await list()).text())).toBe(sparkBefore);
    const { stdout: out } = await seedForce(server);
    expect(out).toContain("seeded 1 sample templates");
    const sparkAfter = sparkOf(await (await list()).text());
    expect(sparkAfter).toBeTruthy();
    expect(sparkAfter).not.toBe(sparkBefore);

    // A template by its slug is kept too; an unknown slug is tRPC's 404, never kept.
    const bySlug = (slug: string) =>
      fetch(`${server.url}/api/trpc/templates.bySlug?input=${encodeURIComponent(JSON.stringify({ slug }))}`);
    const atelier = await bySlug("atelier");
    expect(atelier.status).toBe(200);
    expect(atelier.headers.get("etag")).toMatch(/^W\//);
    expect((await bySlug("no-such-template")).status).toBe(404);
    // Signed in, the list is the buyer's own (what they own): answered by tRPC, never kept.
    expect((await list({ Cookie: admin })).headers.get("etag")).toBeNull();
  });
});
