import { describe, expect, it, vi } from "vitest";
import { ensureUser, rolesOf } from "../../server/auth/users.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { ALREADY_OWNED } from "../../server/shop/checkout.server";
import { STRIPE_NOT_CONFIGURED } from "../../server/payments/stripe.server";
import { announceCatalogueChange } from "../../server/db/catalogue-version.server";
import { checkDownloadLink } from "../../server/shop/downloads.server";
import { env } from "../../server/env.server";
import { log as serverLog } from "../../server/log.server";
import { createCaller } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";
import { freshDb, type TestDb } from "../helpers/db";

async function setup() {
  const t = await freshDb();
  await seedDemoCatalogue(t.db, t.dataDir);
  const u = await ensureUser(t.db, "buyer@example.com");
  const user = { id: u.id, email: u.email, fullName: null, ...(await rolesOf(t.db, u.id)) };
  return {
    t,
    user,
    anon: createCaller(createContextInner({ db: t.db, user: null })),
    buyer: createCaller(createContextInner({ db: t.db, user })),
  };
}

async function own(t: TestDb, userId: string, slug: string) {
  const tpl = await t.db
    .selectFrom("templates")
    .select(["id", "price"])
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto("purchases")
    .values({
      id: `p-${slug}`,
      user_id: userId,
      template_id: tpl.id,
      amount_paid: tpl.price,
      license_key: `K-${slug}`,
      stripe_session_id: null,
    })
    .execute();
  return tpl.id;
}

describe("templates procedures", () => {
  it("list newest first with owned flags for the caller only", async () => {
    const { t, user, anon, buyer } = await setup();
    await own(t, user.id, "spark");
    const list = await buyer.templates.list();
    expect(list.map((x) => x.createdAt)).toEqual([...list.map((x) => x.createdAt)].sort().reverse());
    expect(list.filter((x) => x.owned).map((x) => x.slug)).toEqual(["spark"]);
    expect((await anon.templates.list()).some((x) => x.owned)).toBe(false);
    await t.close();
  });

  it("featured gives 4, topped up from the newest when fewer are featured", async () => {
    const { t, anon } = await setup();
    // Written here straight to the table, so each change announces itself as the services do.
    expect((await anon.templates.featured()).map((x) => x.slug)).toEqual([
      "atelier",
      "launchpad",
      "maison",
      "northbound",
    ]);
    await t.db
      .updateTable("templates")
      .set({ featured: 0 })
      .where("slug", "in", ["maison", "northbound", "launchpad"])
      .execute();
    // Only Atelier is featured now: topped up with the newest others.
    await t.db
      .updateTable("templates")
      .set({ created_at: "2026-01-01T00:00:00.000Z" })
      .where("slug", "=", "harvest-market")
      .execute();
    await announceCatalogueChange(t.db);
    expect((await anon.templates.featured()).map((x) => x.slug)).toEqual([
      "atelier",
      "harvest-market",
      "launchpad",
      "maison",
    ]);
    await t.db.updateTable("templates").set({ featured: 1 }).where("slug", "=", "studio-grid").execute();
    // Kept in memory until the catalogue's version moves: the unannounced write is not read yet.
    expect((await anon.templates.featured()).map((x) => x.slug)).toContain("maison");
    await announceCatalogueChange(t.db);
    expect((await anon.templates.featured()).map((x) => x.slug)).toEqual([
      "atelier",
      "studio-grid",
      "harvest-market",
      "launchpad",
    ]);
    await t.close();
  });

  it("bySlug finds one or answers NOT_FOUND; related gives the same category without the current one", async () => {
    const { t, anon } = await setup();
    const a = await anon.templates.bySlug({ slug: "launchpad" });
    expect(a.techStack).toEqual(expect.arrayContaining(["React", "TypeScript", "Tailwind CSS"]));
    await expect(anon.templates.bySlug({ slug: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(anon.templates.bySlug({ slug: "../etc" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await anon.templates.related({ templateId: a.id, category: "saas" })).map((x) => x.slug)).toEqual([
      "ledger",
    ]);
    await t.close();
  });
});

describe("purchases, checkout and downloads", () => {
  it("mine lists the caller's purchases; anonymous callers are refused", async () => {
    const { t, user, anon, buyer } = await setup();
    await own(t, user.id, "atelier");
    const mine = await buyer.purchases.mine();
    expect(mine).toEqual([
      expect.objectContaining({
        amountPaid: 7900,
        licenseKey: "K-atelier",
        downloadCount: 0,
        template: expect.objectContaining({ slug: "atelier" }),
      }),
    ]);
    await expect(anon.purchases.mine()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await t.close();
  });

  it("checkout refuses owners and explains when Stripe is not configured", async () => {
    const { t, user, anon, buyer } = await setup();
    const owned = await own(t, user.id, "atelier");
    const other = (await buyer.templates.bySlug({ slug: "maison" })).id;
    await expect(anon.checkout.create({ templateId: other })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(buyer.checkout.create({ templateId: owned })).rejects.toMatchObject({
      code: "CONFLICT",
      message: ALREADY_OWNED,
    });
    expect(env().STRIPE_SECRET_KEY).toBeUndefined();
    // Buyers see one plain sentence; which settings are missing goes to the operator's log, once.
    const warn = vi.spyOn(serverLog, "warn").mockImplementation(() => {});
    try {
      expect(STRIPE_NOT_CONFIGURED).toBe("Stripe checkout not configured yet.");
      for (let i = 0; i < 2; i++) {
        const refused = await buyer.checkout.create({ templateId: other }).then(
          () => null,
          (e: unknown) => e as { code: string; message: string },
        );
        expect(refused).toMatchObject({ code: "PRECONDITION_FAILED", message: "Stripe checkout not configured yet." });
        expect(refused!.message).not.toMatch(/STRIPE|_KEY|SECRET/);
      }
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toContain("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
    } finally {
      warn.mockRestore();
    }
    await expect(buyer.checkout.create({ templateId: "missing" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await t.close();
  });

  it("downloads: owners get a signed one-hour link and a log row; others are refused", async () => {
    const { t, user, buyer } = await setup();
    const id = await own(t, user.id, "atelier");
    const other = (await buyer.templates.bySlug({ slug: "maison" })).id;
    await expect(buyer.downloads.create({ templateId: other })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const before = Date.now();
    const { url, downloadCount } = await buyer.downloads.create({ templateId: id });
    expect(downloadCount).toBe(1);
    const u = new URL(url, "http://x");
    expect(u.pathname).toBe("/files/template-files/atelier.zip");
    const exp = Number(u.searchParams.get("exp"));
    expect(exp * 1000 - before).toBeGreaterThan(3590_000);
    expect(exp * 1000 - before).toBeLessThanOrEqual(3601_000);
    expect(await checkDownloadLink(t.db, env().SESSION_SECRET, "atelier.zip", u.searchParams)).toEqual({ ok: true });
    const logs = await t.db.selectFrom("download_logs").selectAll().execute();
    expect(logs).toEqual([expect.objectContaining({ user_id: user.id, template_id: id, ip_address: "" })]);
    await t.close();
  });
});
