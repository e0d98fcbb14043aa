/**
 * A proposal over HTTP against the production build (issue 44.2, 44.8, 44.9): the owner creates and
 * sends it through the console's procedures; the client's page is private, plain HTML without a
 * script; two "Accept" posts at once make one signature; a short name is refused in words; unknown
 * links of every kind are 404.
 */
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDataDir } from "../helpers/e2e";
import { sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await sessionCookie(server.dataDir, "owner-http@example.com", "admin");
  const db = new SQLite(path.join(server.dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  db.prepare(
    `insert into bookings (id, email, full_name, company_name, package_type, package_price, package_name, total_amount, desired_start_date)
     values ('pb-1', 'ada@example.com', 'Ada Lovelace', 'Analytical Engines', 'growth', 850000, 'Growth', 850000, '2027-01-10')`,
  ).run();
  const stage = db.prepare(
    "insert into booking_stages (id, booking_id, position, label, amount) values (?, 'pb-1', ?, ?, ?)",
  );
  stage.run("pb-s0", 0, "Deposit", 170000);
  stage.run("pb-s1", 1, "Design approval", 425000);
  stage.run("pb-s2", 2, "Final delivery", 255000);
  db.close();
});
afterAll(async () => {
  await server?.stop();
});

async function mutation<T>(name: string, input: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api/trpc/admin.proposals.${name}`, {
    method: "POST",
    headers: { Cookie: admin, "Content-Type": "application/json", Origin: server.url },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string } };
  if (!res.ok) throw new Error(`${name}: ${res.status} ${body.error?.message}`);
  return body.result!.data;
}

function signForm(name: string, consent = true) {
  const f = new URLSearchParams({ intent: "sign", name });
  if (consent) f.set("consent", "on");
  return f;
}

const post = (token: string, body: URLSearchParams) =>
  fetch(`${server.url}/proposal/${token}`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Origin: server.url },
  });

describe("a proposal over HTTP", () => {
  let token = "";

  it("is created and sent by the owner; the client's page is private and sends no script", async () => {
    const { id } = await mutation<{ id: string }>("create", { bookingId: "pb-1" });
    await mutation("send", { id });
    token = queryDataDir<{ token: string }>(server.dataDir, "select token from proposals where id = ?", id)[0].token;
    const res = await fetch(`${server.url}/proposal/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("Accept and sign");
    expect(html).toContain("I agree to these terms and to sign electronically");
    expect(html).not.toMatch(/<script[^>]*\bsrc=/);
    expect(html).not.toContain("modulepreload");
  });

  it("refuses a name under two characters, in words, and keeps what was typed", async () => {
    const res = await post(token, signForm("A"));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please type your full name (at least 2 characters)");
    expect(html).toContain('value="A"');
    const missing = await post(token, signForm("Ada Lovelace", false));
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Please tick the box to agree to the terms and to sign electronically");
  });

  it("makes one signature of two posts at once, and serves the signed PDF", async () => {
    const answers = await Promise.all([post(token, signForm("Ada Lovelace")), post(token, signForm("Ada Lovelace"))]);
    for (const a of answers) {
      expect(a.status).toBe(302);
      expect(a.headers.get("location")).toBe(`/proposal/${token}?done=signed`);
    }
    const signed = queryDataDir<{ n: number }>(
      server.dataDir,
      "select count(*) as n from proposal_events e join proposals p on p.id = e.proposal_id where p.token = ? and e.kind = 'signed'",
      token,
    );
    expect(signed[0].n).toBe(1);
    // React's server render separates text parts with empty comments.
    const page = (await (await fetch(`${server.url}/proposal/${token}`)).text()).replaceAll("<!-- -->", "");
    expect(page).toMatch(/Signed on .+ by Ada Lovelace/);
    const pdf = await fetch(`${server.url}/proposal/${token}/signed.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const again = await post(token, signForm("Someone Else"));
    expect(again.status).toBe(302);
    expect(queryDataDir(server.dataDir, "select signer_name from proposals where token = ?", token)).toEqual([
      { signer_name: "Ada Lovelace" },
    ]);
  });

  it("answers 404 for links that name nothing", async () => {
    for (const p of [
      "/proposal/not-a-real-token-0123456789",
      "/proposal/../../etc/passwd",
      "/proposal/not-a-real-token-0123456789/signed.pdf",
      "/pay/not-a-real-token-0123456789/invoice.pdf",
      "/pay/not-a-real-token-0123456789/receipt.pdf",
    ])
      expect((await fetch(`${server.url}${p}`)).status, p).toBe(404);
    const res = await post("not-a-real-token-0123456789", signForm("Ada Lovelace"));
    expect(res.status).toBe(404);
  });
});
