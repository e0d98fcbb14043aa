import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { deleteTemplateFile } from "../../server/admin/template-files.server";
import { ensureUser, grantAdmin, rolesOf } from "../../server/auth/users.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { env } from "../../server/env.server";
import { createStorage, publicUrl, verifySignature } from "../../server/storage/storage.server";
import { createCaller } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";
import { freshDb, type TestDb } from "../helpers/db";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

async function callers(t: TestDb) {
  const admin = await grantAdmin(t.db, "admin@example.com");
  const buyer = await ensureUser(t.db, "buyer@example.com");
  const as = async (u: { id: string; email: string }) =>
    createCaller(
      createContextInner({
        db: t.db,
        user: { id: u.id, email: u.email, fullName: null, ...(await rolesOf(t.db, u.id)) },
      }),
    );
  return {
    admin: await as(admin),
    buyer: await as(buyer),
    anon: createCaller(createContextInner({ db: t.db, user: null })),
  };
}

const form = (name: string, images: string[], fileUrl: string) => ({
  name,
  tagline: "A tagline",
  description: "A description",
  category: "agency" as const,
  price: "49",
  originalPrice: "",
  features: "One",
  included: "Files",
  techStack: "React",
  tags: "",
  images: images.join("\n"),
  fileUrl,
});

async function templateRow(t: TestDb, id: string) {
  const r = await t.db
    .selectFrom("templates")
    .select(["images", "image_url", "file_url"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { images: JSON.parse(r.images) as string[], imageUrl: r.image_url, fileUrl: r.file_url };
}

describe("deleting a stored template file (admin form's Remove)", () => {
  it("deletes the file and the edited template's reference to it; refuses files other templates use", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const storage = createStorage(t.dataDir);
    for (const f of ["nova-1.png", "nova-2.png"]) storage.put("template-images", f, PNG);
    storage.put("template-files", "nova-1.zip", Buffer.from("PK\u0003\u0004"));
    const { admin } = await callers(t);
    const { id } = await admin.admin.templates.create(
      form(
        "Nova",
        [publicUrl("template-images", "nova-1.png"), publicUrl("template-images", "nova-2.png")],
        "nova-1.zip",
      ),
    );

    expect(
      await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-images", path: "nova-1.png", templateId: id }),
    ).toBe("deleted");
    expect(storage.exists("template-images", "nova-1.png")).toBe(false);
    expect(await templateRow(t, id)).toEqual({
      images: ["/files/template-images/nova-2.png"],
      imageUrl: "/files/template-images/nova-2.png",
      fileUrl: "nova-1.zip",
    });

    expect(
      await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-files", path: "nova-1.zip", templateId: id }),
    ).toBe("deleted");
    expect(storage.exists("template-files", "nova-1.zip")).toBe(false);
    expect((await templateRow(t, id)).fileUrl).toBeNull();

    // Seeded files belong to other templates: kept, whoever asks.
    const atelier = await t.db
      .selectFrom("templates")
      .select("id")
      .where("slug", "=", "atelier")
      .executeTakeFirstOrThrow();
    expect(await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-images", path: "atelier-2.svg" })).toBe(
      "in-use",
    );
    expect(
      await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-images", path: "atelier-2.svg", templateId: id }),
    ).toBe("in-use");
    expect(
      await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-files", path: "atelier.zip", templateId: id }),
    ).toBe("in-use");
    // ... also when the archive is only reached by the download fallback (slug.zip).
    await t.db.updateTable("templates").set({ file_url: null }).where("id", "=", atelier.id).execute();
    expect(await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-files", path: "atelier.zip" })).toBe("in-use");
    expect(storage.exists("template-images", "atelier-2.svg")).toBe(true);
    expect(storage.exists("template-files", "atelier.zip")).toBe(true);

    // A fresh upload for a template not saved yet: no reference to drop.
    storage.put("template-images", "draft-1.png", PNG);
    expect(await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-images", path: "draft-1.png" })).toBe(
      "deleted",
    );
    expect(storage.exists("template-images", "draft-1.png")).toBe(false);
    await t.close();
  });

  it("answers missing files without throwing, and still drops the edited template's dangling reference", async () => {
    const t = await freshDb();
    const { admin } = await callers(t);
    const { id } = await admin.admin.templates.create(
      form("Gone", ["/files/template-images/gone.png", "https://cdn.example.com/x.png"], ""),
    );
    expect(
      await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-images", path: "gone.png", templateId: id }),
    ).toBe("missing");
    expect(await templateRow(t, id)).toEqual({
      images: ["https://cdn.example.com/x.png"],
      imageUrl: "https://cdn.example.com/x.png",
      fileUrl: null,
    });
    expect(await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-files", path: "nothing.zip" })).toBe(
      "missing",
    );
    await t.close();
  });

  it("never leaves its bucket", async () => {
    const t = await freshDb();
    const storage = createStorage(t.dataDir);
    storage.put("booking-files", "bookings/b1/1-brief.png", PNG);
    storage.put("template-images", "sub/.inflight.png.abc.tmp", PNG);
    for (const p of [
      "../app.db",
      "../../app.db",
      "a/../../app.db",
      "../booking-files/bookings/b1/1-brief.png",
      "/etc/passwd",
      "a\\..\\b",
      "a\0b",
      "",
      "sub/.inflight.png.abc.tmp",
      "./x.png",
      "a//b",
    ]) {
      expect(await deleteTemplateFile(t.db, t.dataDir, { bucket: "template-images", path: p }), JSON.stringify(p)).toBe(
        "invalid",
      );
    }
    expect(
      await deleteTemplateFile(t.db, t.dataDir, { bucket: "booking-files" as never, path: "bookings/b1/1-brief.png" }),
    ).toBe("invalid");
    expect(storage.exists("booking-files", "bookings/b1/1-brief.png")).toBe(true);
    expect(fs.existsSync(t.file)).toBe(true);
    expect(fs.existsSync(path.join(t.dataDir, "storage", "template-images", "sub", ".inflight.png.abc.tmp"))).toBe(
      true,
    );
    await t.close();
  });

  it("is an admin procedure with 400 / 404 / 409 answers", async () => {
    const t = await freshDb();
    const dataDir = env().DATA_DIR;
    const storage = createStorage(dataDir);
    const name = `proc-${Date.now()}.png`;
    storage.put("template-images", name, PNG);
    const { admin, buyer, anon } = await callers(t);
    await expect(anon.admin.templates.deleteFile({ bucket: "template-images", path: name })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    await expect(buyer.admin.templates.deleteFile({ bucket: "template-images", path: name })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(storage.exists("template-images", name)).toBe(true);
    await expect(
      admin.admin.templates.deleteFile({ bucket: "booking-files" as never, path: name }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      admin.admin.templates.deleteFile({ bucket: "template-images", path: "../app.db" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await admin.admin.templates.create(form("Keeper", [publicUrl("template-images", name)], ""));
    await expect(admin.admin.templates.deleteFile({ bucket: "template-images", path: name })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await t.db.deleteFrom("templates").execute();
    expect(await admin.admin.templates.deleteFile({ bucket: "template-images", path: name })).toEqual({ ok: true });
    expect(storage.exists("template-images", name)).toBe(false);
    await expect(admin.admin.templates.deleteFile({ bucket: "template-images", path: name })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await t.close();
  });
});

describe("booking file links (View and Download in the details modal)", () => {
  it("signs one link per click for a file the booking lists and storage holds", async () => {
    const t = await freshDb();
    const { admin, buyer } = await callers(t);
    const storage = createStorage(env().DATA_DIR);
    const id = `b-${Date.now()}`;
    const png = `bookings/${id}/1700000000000-logo.png`;
    const pdf = `bookings/${id}/1700000000001-brief.pdf`;
    const gone = `bookings/${id}/1700000000002-gone.png`;
    storage.put("booking-files", png, PNG);
    storage.put("booking-files", pdf, Buffer.from("%PDF-1.4"));
    storage.put("booking-files", `bookings/${id}/unlisted.png`, PNG);
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
        total_amount: 850000,
        website_url: null,
        desired_start_date: "2027-01-01",
        source: null,
        uploaded_file_urls: JSON.stringify([png, pdf, gone]),
      })
      .execute();

    const view = await admin.admin.bookings.fileLink({ id, path: png, purpose: "view" });
    const v = new URL(view.url, "http://x");
    expect(v.pathname).toBe(`/files/booking-files/${png}`);
    expect(v.searchParams.get("disposition")).toBe("inline");
    expect(
      verifySignature(env().SESSION_SECRET, "booking-files", png, v.searchParams.get("exp"), v.searchParams.get("sig")),
    ).toBe("ok");
    const dl = new URL((await admin.admin.bookings.fileLink({ id, path: pdf, purpose: "download" })).url, "http://x");
    expect(dl.searchParams.get("disposition")).toBeNull();
    expect(
      verifySignature(
        env().SESSION_SECRET,
        "booking-files",
        pdf,
        dl.searchParams.get("exp"),
        dl.searchParams.get("sig"),
      ),
    ).toBe("ok");

    // No link: a PDF to view, a file gone from disk, a file the booking does not list, another booking.
    await expect(admin.admin.bookings.fileLink({ id, path: pdf, purpose: "view" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(admin.admin.bookings.fileLink({ id, path: gone, purpose: "download" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      admin.admin.bookings.fileLink({ id, path: `bookings/${id}/unlisted.png`, purpose: "download" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(admin.admin.bookings.fileLink({ id: "other", path: png, purpose: "download" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(buyer.admin.bookings.fileLink({ id, path: png, purpose: "download" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await t.close();
  });
});

describe("POST /admin/upload refusals", () => {
  beforeAll(async () => {
    const { migrateToLatest } = await import("../../server/db/db.server");
    const { db } = await import("../../server/db.server");
    await migrateToLatest(db());
  });

  async function post(cookie?: string) {
    const route = await import("../../app/routes/admin.upload");
    const body = new FormData();
    body.append("files", new Blob([PNG], { type: "image/png" }), "shot.png");
    const request = new Request("http://localhost:3000/admin/upload?bucket=template-images&slug=x", {
      method: "POST",
      body,
      headers: cookie ? { Cookie: cookie } : {},
    });
    // A refusal is thrown by the guard; Remix answers a thrown Response as it is.
    try {
      return (await route.action({ request, params: {}, context: {} } as never)) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  async function cookieFor(email: string, admin: boolean) {
    const { db } = await import("../../server/db.server");
    const { auth } = await import("../../server/auth/auth.server");
    const u = admin ? await grantAdmin(db(), email) : await ensureUser(db(), email);
    const session = await auth().sessionStorage.getSession();
    session.set("userId", u.id);
    return (await auth().sessionStorage.commitSession(session)).split(";")[0];
  }

  it("signed out: 401 'You must be an admin to upload files'", async () => {
    const res = await post();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "You must be an admin to upload files" });
  });

  it("signed in without admin rights: 403 'Admin access required to upload files'", async () => {
    const res = await post(await cookieFor(`buyer-${Date.now()}@example.com`, false));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Admin access required to upload files" });
  });

  it("admins upload", async () => {
    const res = await post(await cookieFor(`admin-${Date.now()}@example.com`, true));
    expect(res.status).toBe(200);
    const { files } = (await res.json()) as { files: { path: string; url: string }[] };
    expect(files).toHaveLength(1);
    expect(createStorage(env().DATA_DIR).exists("template-images", files[0].path)).toBe(true);
  });
});
