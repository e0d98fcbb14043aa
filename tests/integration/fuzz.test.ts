/**
 * Property-based bad input (fast-check): every booking step action and every tRPC procedure,
 * with random, oversized and malformed input, never answers 5xx and never writes a row from
 * input it refused.
 */
import fc from "fast-check";
import { sql } from "kysely";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as trpcAction } from "../../app/routes/api.trpc.$";
import { handleBookingPost } from "../../server/http/booking-actions.server";
import { ensureUser, rolesOf } from "../../server/auth/users.server";
import { db } from "../../server/db.server";
import { migrateToLatest, type DB } from "../../server/db/db.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { env } from "../../server/env.server";
import { appRouter, createCaller } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";
import { everyProcedure } from "../helpers/procedures";

const BASE = "http://localhost:3000";
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** The tables a refused input must leave unchanged, and one statement counting them all (after migrating). */
let countAll: ReturnType<typeof sql<{ name: string; n: number }>> | undefined;

/** Row counts of every table: what a refused input must leave unchanged. */
async function rowCounts(d: DB): Promise<Record<string, number>> {
  if (!countAll) {
    const tables = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
      d,
    );
    countAll = sql<{ name: string; n: number }>`${sql.join(
      tables.rows.map(({ name }) => sql`select ${name} as name, count(*) as n from ${sql.table(name)}`),
      sql` union all `,
    )}`;
  }
  const out: Record<string, number> = {};
  for (const { name, n } of (await countAll.execute(d)).rows) out[name] = n;
  return out;
}

/** Strings a form or an API meets in the wild: empty, huge, control characters, markup, SQL, numbers. */
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "<script>alert(1)</script>",
    "' or 1=1 --",
    "../../etc/passwd",
    "NaN",
    "-1",
    "1e309",
    "null",
    "[]",
    "{}",
    "🙂".repeat(50),
  ),
  fc.integer().map(String),
  fc.nat(40).map((n) => "x".repeat(n * 5000)),
);

const formFields = [
  "selectedPackage",
  "name",
  "email",
  "company",
  "phone",
  "isNewSite",
  "websiteUrl",
  "primaryGoal",
  "targetAudience",
  "inspiration1",
  "inspiration2",
  "inspiration3",
  "mustHaveFeatures",
  "niceToHaveFeatures",
  "preferredStartDate",
  "timelineFlexibility",
  "selectedAddOns",
  "addOnQuantities.additional-page",
  "campaignAccepted",
  "source",
  "remove",
  "intent",
  "fax_number",
];

const bookingPost = fc.record({
  step: fc.oneof(fc.integer({ min: -3, max: 9 }).map(String), nasty),
  fields: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...formFields), fc.string({ maxLength: 20 })), nasty), {
    maxLength: 12,
  }),
  intent: fc.constantFrom("next", "back", "confirm", "upload", "", "delete", "<b>"),
  multipart: fc.boolean(),
  files: fc.array(fc.tuple(fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 2048 })), { maxLength: 3 }),
});

type BookingPost = typeof bookingPost extends fc.Arbitrary<infer T> ? T : never;

function bookingRequest(p: BookingPost, cookie: string) {
  const url = `${BASE}/booking?step=${encodeURIComponent(p.step)}`;
  if (p.multipart) {
    const form = new FormData();
    form.set("intent", p.intent);
    for (const [k, v] of p.fields) form.append(k, v);
    for (const [name, bytes] of p.files) form.append("files", new Blob([bytes]), name || "x");
    return new Request(url, { method: "POST", body: form, headers: { Cookie: cookie } });
  }
  const body = new URLSearchParams();
  body.set("intent", p.intent);
  for (const [k, v] of p.fields) body.append(k, v);
  return new Request(url, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
  });
}

function statusOf(res: unknown): number {
  if (res instanceof Response) return res.status;
  return (res as { init?: { status?: number } }).init?.status ?? 200;
}

beforeAll(async () => {
  await migrateToLatest(db());
  await seedDemoCatalogue(db(), env().DATA_DIR);
});

describe("booking step actions under random input", () => {
  it("never answer 5xx and never save a booking from an unfinished draft", async () => {
    let cookie = "";
    await fc.assert(
      fc.asyncProperty(bookingPost, fc.boolean(), async (p, freshVisitor) => {
        if (freshVisitor) cookie = "";
        const before = await rowCounts(db());
        const draftBefore = cookie
          ? await db()
              .selectFrom("booking_drafts")
              .select("data")
              .orderBy("created_at", "desc")
              .limit(1)
              .executeTakeFirst()
          : undefined;
        // Each run as its own client, so the new-draft limit (100 an hour per client) never narrows what is explored.
        const res = await handleBookingPost(db(), bookingRequest(p, cookie), `fuzz-${Math.random()}`);
        const status = statusOf(res);
        expect(status).toBeLessThan(500);
        const set = res instanceof Response ? res.headers.get("Set-Cookie") : null;
        if (set) cookie = set.split(";")[0];
        const after = await rowCounts(db());
        // Random input never completes all six steps, so no booking and no mail.
        expect(after.bookings).toBe(before.bookings);
        expect(after.email_outbox).toBe(before.email_outbox);
        // A refused step (400) leaves the saved draft as it was.
        if (status === 400 && draftBefore) {
          const draftAfter = await db()
            .selectFrom("booking_drafts")
            .select("data")
            .orderBy("created_at", "desc")
            .limit(1)
            .executeTakeFirst();
          expect(draftAfter?.data).toBe(draftBefore.data);
        }
      }),
      { numRuns: RUNS * 5 },
    );
  });
});

/** Every procedure of the router, by its dotted path. */
const procedures = Object.keys(await everyProcedure(appRouter)).sort();

/** Random input, plus near-valid shapes that reach deeper than the first check. */
const procedureInput = fc.oneof(
  fc.anything({ maxDepth: 3, withNullPrototype: true, withBigInt: false }),
  fc.record(
    {
      id: nasty,
      slug: nasty,
      templateId: nasty,
      category: fc.constantFrom("portfolio", "saas", "nope", ""),
      status: fc.constantFrom("pending", "contacted", "paid", ""),
      featured: fc.oneof(fc.boolean(), nasty),
      amount: fc.oneof(fc.integer(), fc.double(), nasty),
      note: nasty,
      bucket: fc.constantFrom("template-images", "template-files", "booking-files", ""),
      path: fc.oneof(nasty, fc.constantFrom("../app.db", "a/../../x", ".x.png.abc.tmp", "missing.png")),
      purpose: fc.constantFrom("view", "download", ""),
      data: fc.dictionary(
        fc.constantFrom("name", "slug", "price", "description", "category", "features", "imageUrl", "fileUrl", "tags"),
        fc.oneof(nasty, fc.integer(), fc.array(nasty, { maxLength: 3 })),
      ),
    },
    { requiredKeys: [] },
  ),
);

describe("tRPC procedures under random input", () => {
  const users: Record<string, Awaited<ReturnType<typeof makeUser>> | null> = {};
  async function makeUser(email: string, admin: boolean) {
    const u = await ensureUser(db(), email);
    if (admin)
      await db()
        .insertInto("admin_users")
        .values({ id: u.id, is_super_admin: 1 })
        .onConflict((oc) => oc.doNothing())
        .execute();
    return { id: u.id, email: u.email, fullName: null, ...(await rolesOf(db(), u.id)) };
  }
  beforeAll(async () => {
    users.anonymous = null;
    users.buyer = await makeUser("fuzz-buyer@example.com", false);
    users.admin = await makeUser("fuzz-admin@example.com", true);
  });

  it("covers the whole router", () => {
    expect(procedures).toContain("admin.templates.create");
    expect(procedures).toContain("checkout.create");
    expect(procedures.length).toBeGreaterThan(15);
  });

  for (const path of procedures) {
    it(`${path}: refuses bad input without 5xx or writes`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom("anonymous", "buyer", "admin"), procedureInput, async (role, input) => {
          const caller = createCaller(createContextInner({ db: db(), user: users[role] }));
          const fn = path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], caller) as (
            i: unknown,
          ) => Promise<unknown>;
          const before = await rowCounts(db());
          try {
            await fn(input);
          } catch (error) {
            expect(error).toBeInstanceOf(TRPCError);
            expect((error as TRPCError).code, String((error as Error).message)).not.toBe("INTERNAL_SERVER_ERROR");
            expect(await rowCounts(db())).toEqual(before);
          }
        }),
        { numRuns: RUNS },
      );
    });
  }

  it("the HTTP endpoint answers malformed bodies, batches and query strings with 4xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...procedures, "nope", "admin.nope", "", "a,b,c"),
        fc.oneof(nasty, fc.json(), fc.constantFrom('{"0":', "[1,2", '{"json":null}', "\u0000")),
        fc.boolean(),
        async (path, body, asGet) => {
          const before = await rowCounts(db());
          const request = asGet
            ? new Request(`${BASE}/api/trpc/${path}?input=${encodeURIComponent(body)}`)
            : new Request(`${BASE}/api/trpc/${path}`, {
                method: "POST",
                body,
                headers: { "Content-Type": "application/json" },
              });
          const res = await trpcAction({ request, context: { clientIp: `fuzz-${Math.random()}` }, params: {} });
          expect(res.status).toBeLessThan(500);
          expect(await rowCounts(db())).toEqual(before);
        },
      ),
      { numRuns: RUNS * 3 },
    );
  });
});

afterAll(async () => {
  expect((await rowCounts(db())).bookings).toBe(0);
});
