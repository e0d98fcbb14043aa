/**
 * The one guard (issue 30.4) against the production build: every admin entry point, listed here
 * and checked to be the whole list (a new admin route or procedure fails this test until it is
 * added), refuses signed-out visitors and buyers on the server and lets an admin through.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "../../server/db/backup.server";
import { appRouter } from "../../server/trpc/root";
import { sessionCookie, startServer, type RunningServer } from "../helpers/server";
import { everyProcedure } from "../helpers/procedures";

const root = path.resolve(import.meta.dirname, "../..");
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

let server: RunningServer;
let buyer: string;
let admin: string;
let backupName = "";
beforeAll(async () => {
  server = await startServer();
  buyer = await sessionCookie(server.dataDir, "guard-buyer@example.com");
  admin = await sessionCookie(server.dataDir, "guard-admin@example.com", "admin");
  // A backup on the server's machine, for the download route to serve to an admin.
  const { file } = await createBackup(server.dataDir, { defaultDir: path.join(server.dataDir, "backups") });
  backupName = path.basename(file);
});
afterAll(async () => {
  await server?.stop();
});

/** `admin`: what an admin gets when not 200 or a redirect (a document that does not exist: 404, past the guard). */
type Entry = {
  method: "GET" | "POST";
  path: string | (() => string);
  body?: () => BodyInit;
  answer: "page" | "api";
  admin?: number;
};

/** Every route module of the console, with the requests that reach it. */
const ROUTES: Record<string, Entry[]> = {
  "admin.tsx": [{ method: "GET", path: "/admin?tab=bookings", answer: "page" }],
  // The console by screen (decision 033): each screen's loader guards itself too.
  "admin._index.tsx": [{ method: "GET", path: "/admin", answer: "page" }],
  "admin.bookings.tsx": [{ method: "GET", path: "/admin/bookings", answer: "page" }],
  "admin.templates.tsx": [{ method: "GET", path: "/admin/templates", answer: "page" }],
  "admin.purchases.tsx": [{ method: "GET", path: "/admin/purchases", answer: "page" }],
  "admin.upload.ts": [
    {
      method: "POST",
      path: "/admin/upload?bucket=template-images&slug=x",
      body: () => {
        const f = new FormData();
        f.append("files", new Blob([PNG], { type: "image/png" }), "x.png");
        return f;
      },
      answer: "api",
    },
  ],
  "admin_.backups.download.ts": [
    { method: "GET", path: () => `/admin/backups/download?name=${encodeURIComponent(backupName)}`, answer: "api" },
  ],
  // Signed proposals and invoices as PDFs (issue 44): an unknown one is 404, but only for an admin.
  "admin_.proposals.$id.ts": [{ method: "GET", path: "/admin/proposals/missing", answer: "api", admin: 404 }],
  "admin_.invoices.$id.ts": [{ method: "GET", path: "/admin/invoices/missing", answer: "api", admin: 404 }],
  "admin_.export.$file.ts": [
    { method: "GET", path: "/admin/export/bookings.csv", answer: "api" },
    { method: "GET", path: "/admin/export/purchases.csv", answer: "api" },
  ],
  "admin.settings.tsx": [
    { method: "GET", path: "/admin/settings?section=packages", answer: "page" },
    {
      method: "POST",
      path: "/admin/settings?section=studio",
      body: () => new URLSearchParams({ section: "studio", intent: "clear-sample" }),
      answer: "page",
    },
  ],
};

async function request(e: Entry, cookie: string | null) {
  return fetch(`${server.url}${typeof e.path === "string" ? e.path : e.path()}`, {
    method: e.method,
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...(e.method === "POST" ? { Origin: server.url } : {}) },
    body: e.body?.(),
    redirect: "manual",
  });
}

describe("the one guard", () => {
  it("knows every admin route module", () => {
    const modules = fs
      .readdirSync(path.join(root, "app/routes"))
      .filter((f) => /^admin[._]/.test(f) || f === "admin.tsx");
    expect(modules.sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it("refuses signed-out visitors and buyers on every admin route, and lets an admin through", async () => {
    for (const [file, entries] of Object.entries(ROUTES)) {
      for (const e of entries) {
        const what = `${file}: ${e.method} ${typeof e.path === "string" ? e.path : e.path()}`;
        for (const [who, cookie] of [
          ["signed out", null],
          ["buyer", buyer],
        ] as const) {
          const res = await request(e, cookie);
          if (e.answer === "page") {
            expect(res.status, `${what} (${who})`).toBe(302);
            expect(res.headers.get("location"), `${what} (${who})`).toBe("/templates");
          } else {
            expect(res.status, `${what} (${who})`).toBe(who === "buyer" ? 403 : 401);
          }
        }
        const ok = await request(e, admin);
        const letIn = e.admin ? [e.admin] : [200, 302];
        expect(letIn.includes(ok.status) && ok.headers.get("location") !== "/templates", what).toBe(true);
      }
    }
    // Of the three uploads (two refused, one let through), one file was stored: the admin's.
    const stored = fs
      .readdirSync(path.join(server.dataDir, "storage", "template-images"))
      .filter((f) => f.startsWith("x-"));
    expect(stored).toHaveLength(1);
  });

  it("refuses every admin procedure over HTTP: 401 signed out, 403 for a buyer", async () => {
    const procedures = Object.entries(await everyProcedure(appRouter)).filter(([name]) => name.startsWith("admin."));
    expect(procedures.length).toBeGreaterThan(15);
    for (const [name, proc] of procedures) {
      const mutation = proc._def.type === "mutation";
      for (const [cookie, status] of [
        [null, 401],
        [buyer, 403],
      ] as const) {
        const res = await fetch(`${server.url}/api/trpc/${name}`, {
          method: mutation ? "POST" : "GET",
          headers: {
            ...(cookie ? { Cookie: cookie } : {}),
            ...(mutation ? { "Content-Type": "application/json", Origin: server.url } : {}),
          },
          body: mutation ? "{}" : undefined,
        });
        expect(res.status, `${name} (${cookie ? "buyer" : "signed out"})`).toBe(status);
      }
    }
  });
});
