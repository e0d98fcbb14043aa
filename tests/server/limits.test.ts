import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../server/rate-limit.server";
import { cloneDraft, httpVisitor, queryDb, sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const bookings = () => queryDb<{ n: number }>(server.dataDir, "select count(*) n from bookings")[0].n;

describe("abuse limits (429 with Retry-After, per client)", () => {
  it("limits booking confirms per client address, and only that client", async () => {
    const first = httpVisitor(server.url, "198.51.100.1");
    await first.fillSteps("limit@example.com");
    const max = LIMITS["booking-confirm"].max;
    const cookies = await cloneDraft(server.dataDir, first.cookie, max + 2);
    const before = bookings();
    for (let i = 0; i < max; i++) {
      const v = httpVisitor(server.url, "198.51.100.1");
      v.cookie = cookies[i];
      const res = await v.confirm();
      expect(res.status, `confirm ${i + 1}`).toBe(302);
      expect(res.headers.get("location")).toBe("/booking/success");
    }
    expect(bookings()).toBe(before + max);

    const over = httpVisitor(server.url, "198.51.100.1");
    over.cookie = cookies[max];
    const refused = await fetch(`${server.url}/booking?index&step=6`, {
      method: "POST",
      body: new URLSearchParams({ intent: "confirm", slot: (await over.firstSlot()) ?? "" }),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: server.url,
        Cookie: over.cookie,
        "X-Forwarded-For": "198.51.100.1",
      },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The visitor keeps the wizard and reads why.
    expect(await refused.text()).toContain(LIMITS["booking-confirm"].message);
    expect(bookings()).toBe(before + max);

    const other = httpVisitor(server.url, "198.51.100.2");
    other.cookie = cookies[max + 1];
    expect((await other.confirm()).status).toBe(302);
    expect(bookings()).toBe(before + max + 1);
  });

  it("limits booking uploads before reading the body", async () => {
    const v = httpVisitor(server.url, "198.51.100.3");
    await v.fillSteps("uploads@example.com");
    const post = () => {
      const form = new FormData();
      form.set("intent", "upload");
      form.set(
        "files",
        new Blob([Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex")], {
          type: "image/png",
        }),
        "logo.png",
      );
      return fetch(`${server.url}/booking?index&step=5`, {
        method: "POST",
        body: form,
        redirect: "manual",
        headers: { Origin: server.url, Cookie: v.cookie, "X-Forwarded-For": "198.51.100.3" },
      });
    };
    for (let i = 0; i < LIMITS["booking-upload"].max; i++)
      expect((await post()).status, `upload ${i + 1}`).not.toBe(429);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.text()).toContain(LIMITS["booking-upload"].message);
  });

  it("limits tRPC mutations per client, counting every call of a batch", async () => {
    const call = (ip: string, path = "admin.templates.toggleFeatured") =>
      fetch(`${server.url}/api/trpc/${path}`, {
        method: "POST",
        body: "{}",
        headers: { "Content-Type": "application/json", Origin: server.url, "X-Forwarded-For": ip },
      });
    const max = LIMITS["trpc-mutation"].max;
    const batch = Array.from({ length: max - 1 }, () => "admin.templates.toggleFeatured").join(",");
    expect((await call("198.51.100.4", `${batch}?batch=1`)).status).not.toBe(429);
    expect((await call("198.51.100.4")).status).not.toBe(429);
    const refused = await call("198.51.100.4");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { data: { code: string } } }).error.data.code).toBe("TOO_MANY_REQUESTS");
    // Queries are not mutations, and other clients are unaffected.
    expect(
      (await fetch(`${server.url}/api/trpc/templates.list`, { headers: { "X-Forwarded-For": "198.51.100.4" } })).status,
    ).toBe(200);
    expect((await call("198.51.100.5")).status).not.toBe(429);
  });

  it("limits checkout creation per buyer", async () => {
    const cookie = await sessionCookie(server.dataDir, "buyer-limit@example.com");
    const template = queryDb<{ id: string }>(server.dataDir, "select id from templates limit 1")[0];
    const create = (ip: string) =>
      fetch(`${server.url}/api/trpc/checkout.create`, {
        method: "POST",
        body: JSON.stringify({ templateId: template.id }),
        headers: { "Content-Type": "application/json", Origin: server.url, Cookie: cookie, "X-Forwarded-For": ip },
      });
    for (let i = 0; i < LIMITS.checkout.max; i++)
      expect((await create(`198.51.100.${10 + (i % 5)}`)).status).not.toBe(429);
    // A new address does not reset a buyer's limit.
    const refused = await create("198.51.100.99");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(LIMITS.checkout.message);
  });
});
