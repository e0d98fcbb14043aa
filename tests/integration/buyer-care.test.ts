import { describe, expect, it } from "vitest";
import { grantAdmin, ensureUser, rolesOf } from "../../server/auth/users.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { env } from "../../server/env.server";
import { checkDownloadLink, createDownload, DOWNLOAD_REVOKED } from "../../server/shop/downloads.server";
import { fulfilCheckout } from "../../server/shop/purchases.server";
import { createCaller } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";
import { freshDb, type TestDb } from "../helpers/db";

async function adminCaller(t: TestDb) {
  const u = await grantAdmin(t.db, "owner@example.com");
  return createCaller(
    createContextInner({
      db: t.db,
      user: { id: u.id, email: u.email, fullName: null, ...(await rolesOf(t.db, u.id)) },
    }),
  );
}

/** A buyer who paid for the seeded Spark template through a checkout session. */
async function purchase(t: TestDb, session = "cs_care_1") {
  const buyer = await ensureUser(t.db, "buyer@example.com");
  const tpl = await t.db
    .selectFrom("templates")
    .select(["id", "sales_count"])
    .where("slug", "=", "spark")
    .executeTakeFirstOrThrow();
  const r = await fulfilCheckout(t.db, {
    stripeSessionId: session,
    paymentIntent: `pi_${session}`,
    userId: buyer.id,
    templateId: tpl.id,
    amountPaid: 6900,
  });
  if (r.outcome !== "created") throw new Error(r.outcome);
  return { buyer, tpl, purchaseId: r.purchaseId, licenseKey: r.licenseKey };
}

function linkParts(url: string) {
  const u = new URL(url, "http://x");
  return { relPath: decodeURIComponent(u.pathname.replace("/files/template-files/", "")), params: u.searchParams };
}

describe("buyer care from the console (issue 19.7)", () => {
  it("resends the receipt: a new email with the license key and a download link that works", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const admin = await adminCaller(t);
    const p = await purchase(t);
    const before = await t.db
      .selectFrom("email_outbox")
      .select("id")
      .where("to_email", "=", "buyer@example.com")
      .execute();

    const sent = await admin.admin.purchases.resendReceipt({ id: p.purchaseId });
    expect(sent.to).toBe("buyer@example.com");
    const mails = await t.db
      .selectFrom("email_outbox")
      .selectAll()
      .where("to_email", "=", "buyer@example.com")
      .orderBy("id")
      .execute();
    expect(mails).toHaveLength(before.length + 1);
    const mail = mails.at(-1)!;
    expect(mail.subject).toBe("Your receipt: Spark template");
    expect(mail.text_body).toContain(`License key: ${p.licenseKey}`);
    expect(mail.html_body).toContain(p.licenseKey);
    const link = mail.text_body.match(/Download the files: (\S+)/)![1];
    expect(link.startsWith(`${env().APP_URL}/files/template-files/spark.zip?`)).toBe(true);
    const { relPath, params } = linkParts(link);
    expect(await checkDownloadLink(t.db, env().SESSION_SECRET, relPath, params)).toEqual({ ok: true });
    expect(mail.text_body).toContain(`sign in with buyer@example.com`);
    await t.close();
  });

  it("revokes access: the purchase shows as revoked, every link and new downloads are refused, and it can't be revoked twice", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const admin = await adminCaller(t);
    const p = await purchase(t);
    const sold = (
      await t.db.selectFrom("templates").select("sales_count").where("id", "=", p.tpl.id).executeTakeFirstOrThrow()
    ).sales_count;
    const { url } = await createDownload(t.db, env(), p.buyer.id, p.tpl.id);
    const earlier = linkParts(url);
    expect(await checkDownloadLink(t.db, env().SESSION_SECRET, earlier.relPath, earlier.params)).toEqual({ ok: true });

    expect(await admin.admin.purchases.revoke({ id: p.purchaseId })).toEqual({ ok: true });
    const row = await t.db
      .selectFrom("purchases")
      .select(["status", "revoked_at"])
      .where("id", "=", p.purchaseId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("revoked");
    expect(row.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(
      (await t.db.selectFrom("templates").select("sales_count").where("id", "=", p.tpl.id).executeTakeFirstOrThrow())
        .sales_count,
    ).toBe(sold - 1);

    expect(await checkDownloadLink(t.db, env().SESSION_SECRET, earlier.relPath, earlier.params)).toEqual({
      ok: false,
      message: DOWNLOAD_REVOKED.revoked,
    });
    await expect(createDownload(t.db, env(), p.buyer.id, p.tpl.id)).rejects.toMatchObject({ kind: "forbidden" });
    const list = await admin.admin.purchases.list({ q: "buyer@example.com" });
    expect(list.rows.map((r) => [r.status, Boolean(r.revokedAt)])).toEqual([["revoked", true]]);

    await expect(admin.admin.purchases.revoke({ id: p.purchaseId })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This purchase no longer grants access.",
    });
    await expect(admin.admin.purchases.resendReceipt({ id: p.purchaseId })).rejects.toMatchObject({ code: "CONFLICT" });
    // A replay of the old checkout does not bring it back; paying again through a new session does.
    expect(
      (
        await fulfilCheckout(t.db, {
          stripeSessionId: "cs_care_1",
          paymentIntent: "pi_cs_care_1",
          userId: p.buyer.id,
          templateId: p.tpl.id,
          amountPaid: 6900,
        })
      ).outcome,
    ).toBe("revoked");
    const again = await fulfilCheckout(t.db, {
      stripeSessionId: "cs_care_2",
      paymentIntent: "pi_cs_care_2",
      userId: p.buyer.id,
      templateId: p.tpl.id,
      amountPaid: 6900,
    });
    expect(again.outcome).toBe("created");
    expect(
      await t.db
        .selectFrom("purchases")
        .select(["status", "revoked_at"])
        .where("id", "=", p.purchaseId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "active", revoked_at: null });
    await t.close();
  });
});
