import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { adminStats } from "../../server/admin/stats.server";
import { slugify } from "../../server/admin/templates.server";
import { recordPayment } from "../../server/payments/ledger.server";
import { fulfilCheckout } from "../../server/shop/purchases.server";
import { grantAdmin, ensureUser, rolesOf } from "../../server/auth/users.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { appRouter, createCaller } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";
import { freshDb, type TestDb } from "../helpers/db";
import { everyProcedure } from "../helpers/procedures";

async function callerFor(t: TestDb, who: "anon" | "buyer" | "admin") {
  if (who === "anon") return createCaller(createContextInner({ db: t.db, user: null }));
  const email = `${who}@example.com`;
  const u = who === "admin" ? await grantAdmin(t.db, email) : await ensureUser(t.db, email);
  const roles = await rolesOf(t.db, u.id);
  return createCaller(createContextInner({ db: t.db, user: { id: u.id, email: u.email, fullName: null, ...roles } }));
}

async function insertBooking(t: TestDb, id: string, total: number, status = "pending") {
  await t.db
    .insertInto("bookings")
    .values({
      id,
      user_id: null,
      email: "c@example.com",
      full_name: "C",
      company_name: "Co",
      phone: null,
      package_type: "growth",
      package_price: 850000,
      total_amount: total,
      website_url: null,
      desired_start_date: "2027-01-01",
      source: null,
      status: status as "pending",
    })
    .execute();
}

const form = {
  name: "Nova Studio",
  tagline: "A tagline",
  description: "A description",
  category: "agency" as const,
  price: "99.999",
  originalPrice: "129",
  features: "One\n\n Two \n",
  included: "Files\n",
  techStack: " React, ,TypeScript ",
  tags: "a, b,,",
  images: "/files/template-images/x.png\n\n",
  fileUrl: "",
};

describe("admin procedures", () => {
  it("refuse anonymous callers (UNAUTHORIZED) and buyers (FORBIDDEN), for every procedure", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const anon = await callerFor(t, "anon");
    const buyer = await callerFor(t, "buyer");
    const admin = await callerFor(t, "admin");
    type C = typeof anon;
    const calls: [string, (c: C) => Promise<unknown>][] = [
      ["stats", (c) => c.admin.stats()],
      ["backups.list", (c) => c.admin.backups.list()],
      ["backups.now", (c) => c.admin.backups.now()],
      ["backups.schedule", (c) => c.admin.backups.schedule({ cron: "0 4 * * *", keep: 5 })],
      ["mail.status", (c) => c.admin.mail.status()],
      ["mail.test", (c) => c.admin.mail.test({ to: "owner@example.com" })],
      ["mail.retry", (c) => c.admin.mail.retry({ id: 1 })],
      ["money.view", (c) => c.admin.money.view()],
      ["money.recent", (c) => c.admin.money.recent()],
      ["money.refund", (c) => c.admin.money.refund({ paymentId: "missing" })],
      ["templates.list", (c) => c.admin.templates.list()],
      ["templates.create", (c) => c.admin.templates.create(form)],
      ["templates.update", (c) => c.admin.templates.update({ id: "missing", data: form })],
      ["templates.setFeatured", (c) => c.admin.templates.setFeatured({ id: "missing", featured: true })],
      ["templates.delete", (c) => c.admin.templates.delete({ id: "missing" })],
      ["templates.deleteFile", (c) => c.admin.templates.deleteFile({ bucket: "template-images", path: "missing.png" })],
      ["templates.removeSamples", (c) => c.admin.templates.removeSamples()],
      ["bookings.list", (c) => c.admin.bookings.list()],
      ["bookings.get", (c) => c.admin.bookings.get({ id: "missing" })],
      ["bookings.upcoming", (c) => c.admin.bookings.upcoming()],
      ["bookings.setStatus", (c) => c.admin.bookings.setStatus({ id: "missing", status: "contacted" })],
      ["bookings.recordPayment", (c) => c.admin.bookings.recordPayment({ id: "missing", amount: 100 })],
      ["bookings.plan", (c) => c.admin.bookings.plan({ id: "missing" })],
      ["bookings.updateStage", (c) => c.admin.bookings.updateStage({ id: "missing", stageId: "s", amount: "1" })],
      ["bookings.addStage", (c) => c.admin.bookings.addStage({ id: "missing", label: "Extra", amount: "1" })],
      ["bookings.removeStage", (c) => c.admin.bookings.removeStage({ id: "missing", stageId: "s" })],
      ["bookings.requestPayment", (c) => c.admin.bookings.requestPayment({ id: "missing", stageId: "s" })],
      ["bookings.sendReminder", (c) => c.admin.bookings.sendReminder({ id: "missing", stageId: "s" })],
      ["bookings.delete", (c) => c.admin.bookings.delete({ id: "missing" })],
      ["bookings.callTimes", (c) => c.admin.bookings.callTimes({ id: "missing" })],
      ["bookings.moveCall", (c) => c.admin.bookings.moveCall({ id: "missing", startAt: "2031-03-03T10:00:00.000Z" })],
      ["bookings.cancelCall", (c) => c.admin.bookings.cancelCall({ id: "missing" })],
      [
        "bookings.fileLink",
        (c) => c.admin.bookings.fileLink({ id: "missing", path: "bookings/missing/1-a.png", purpose: "download" }),
      ],
      ["proposals.forBooking", (c) => c.admin.proposals.forBooking({ bookingId: "missing" })],
      ["proposals.create", (c) => c.admin.proposals.create({ bookingId: "missing" })],
      ["proposals.update", (c) => c.admin.proposals.update({ id: "missing", fields: {} })],
      ["proposals.send", (c) => c.admin.proposals.send({ id: "missing" })],
      ["proposals.extend", (c) => c.admin.proposals.extend({ id: "missing", expiresOn: "2031-01-01" })],
      ["proposals.revise", (c) => c.admin.proposals.revise({ id: "missing" })],
      ["proposals.countersign", (c) => c.admin.proposals.countersign({ id: "missing", name: "Owner" })],
      ["proposals.invoices", (c) => c.admin.proposals.invoices()],
      ["purchases.list", (c) => c.admin.purchases.list()],
      ["purchases.resendReceipt", (c) => c.admin.purchases.resendReceipt({ id: "missing" })],
      ["purchases.revoke", (c) => c.admin.purchases.revoke({ id: "missing" })],
    ];
    // Every admin procedure of the router is in the matrix.
    const procedures = Object.keys(await everyProcedure(appRouter)).filter((p) => p.startsWith("admin."));
    expect(procedures.map((p) => p.slice(6)).sort()).toEqual(calls.map(([n]) => n).sort());
    for (const [name, call] of calls) {
      await expect(call(anon), name).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      await expect(call(buyer), name).rejects.toMatchObject({ code: "FORBIDDEN" });
      await call(admin).catch((e: unknown) => {
        expect(e, name).toBeInstanceOf(TRPCError);
        expect((e as TRPCError).code, name).toBe("NOT_FOUND");
      });
    }
    await t.close();
  });

  it("store the template form's rules: cents, on_sale, slug, lists", async () => {
    const t = await freshDb();
    const admin = await callerFor(t, "admin");
    const a = await admin.admin.templates.create(form);
    const b = await admin.admin.templates.create({ ...form, originalPrice: "0" });
    expect(a.slug).toBe("nova-studio");
    expect(b.slug).toBe("nova-studio-2");
    const rows = await t.db.selectFrom("templates").selectAll().orderBy("slug").execute();
    expect(rows[0]).toMatchObject({
      price: 10000,
      original_price: 12900,
      on_sale: 1,
      featured: 0,
      rating: 0,
      review_count: 0,
      sales_count: 0,
    });
    expect(JSON.parse(rows[0].features)).toEqual(["One", "Two"]);
    expect(JSON.parse(rows[0].tech_stack)).toEqual(["React", "TypeScript"]);
    expect(JSON.parse(rows[0].tags)).toEqual(["a", "b"]);
    expect(rows[0].image_url).toBe("/files/template-images/x.png");
    expect(rows[1]).toMatchObject({ original_price: null, on_sale: 0 });
    await expect(admin.admin.templates.create({ ...form, name: " ", price: "-1" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(slugify("  My New   Template ")).toBe("my-new-template");
    await t.close();
  });

  it("read a booking's JSON columns in the shapes the booking stored them (files by name and size)", async () => {
    const t = await freshDb();
    const admin = await callerFor(t, "admin");
    await insertBooking(t, "files-1", 850000);
    await t.db
      .updateTable("bookings")
      .set({
        uploaded_files: JSON.stringify([{ name: "brand.png", size: 2048 }]),
        uploaded_file_urls: JSON.stringify(["bookings/files-1/1-brand.png"]),
        // One add-on as bookings stored them before issue 29 (id and quantity: the sample's prices), one
        // with the name and price it was booked at, since retired from the catalogue.
        addons: JSON.stringify([
          { id: "crm-integration", quantity: 1 },
          { id: "retired", quantity: 2, name: "Retired add-on", price: 12300 },
        ]),
        payment_history: JSON.stringify([{ amount: 500, date: "2026-11-20T10:00:00.000Z", note: "Deposit" }]),
      })
      .where("id", "=", "files-1")
      .execute();
    const b = await admin.admin.bookings.get({ id: "files-1" });
    expect(b.uploadedFiles).toEqual([{ name: "brand.png", size: 2048 }]);
    expect(b.uploadedFileUrls).toEqual(["bookings/files-1/1-brand.png"]);
    expect(b.addons).toEqual([
      { id: "crm-integration", quantity: 1, name: "CRM integration", price: 200000 },
      { id: "retired", quantity: 2, name: "Retired add-on", price: 12300 },
    ]);
    expect(b.packageName).toBe("Growth");
    expect(b.paymentHistory).toEqual([{ amount: 500, date: "2026-11-20T10:00:00.000Z", note: "Deposit" }]);
    await t.close();
  });

  it("compute the four cards in SQL and record payments in one transaction", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    expect((await adminStats(t.db)).topTemplate).toBeNull();
    const u = await ensureUser(t.db, "buyer@example.com");
    const tpl = await t.db
      .selectFrom("templates")
      .select(["id", "name"])
      .where("slug", "=", "atelier")
      .executeTakeFirstOrThrow();
    // A sale as the shop records it: the purchase and its ledger row, which every money figure reads.
    await fulfilCheckout(t.db, {
      stripeSessionId: "cs_p1",
      paymentIntent: "pi_p1",
      userId: u.id,
      templateId: tpl.id,
      amountPaid: 7900,
    });
    await insertBooking(t, "b1", 850000);
    await insertBooking(t, "b2", 250000, "contacted");
    await recordPayment(t.db, "b1", { amount: 170000, note: "deposit" });
    const after = await recordPayment(t.db, "b1", { amount: "250.50" }, new Date("2026-11-22T00:00:00Z"));
    expect(after).toMatchObject({ amountPaid: 195050, paymentStatus: "partial" });
    expect(after!.paymentHistory).toEqual([
      expect.objectContaining({ amount: 170000, note: "deposit" }),
      { amount: 25050, date: "2026-11-22T00:00:00.000Z" },
    ]);
    const s = await adminStats(t.db);
    expect(s).toMatchObject({
      productRevenue: 7900,
      bookingsPaid: 195050,
      totalRevenue: 202950,
      totalSales: 1,
      totalBookings: 2,
      pendingBookings: 1,
      // Open quotes beyond what they paid: (8,500 - 1,950.50) + 2,500, shown as Pipeline, not revenue.
      pipeline: 904950,
    });
    // The top seller by purchases made here, not by the catalogue's pre-filled sales_count.
    expect(s.topTemplate).toEqual({ name: tpl.name, sales: 1 });
    await expect(recordPayment(t.db, "missing", { amount: 1 })).rejects.toThrow("Booking not found");
    await t.close();
  });
});
