import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { removeSampleTemplates } from "../../server/admin/templates.server";
import { seedDemoCatalogue } from "../../server/db/seed.server";
import { stringList } from "../../server/db/json";
import { freshDb } from "../helpers/db";

/** Reads the names and contents of a zip's entries by walking its central directory. */
function unzip(buf: Buffer): Record<string, string> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50);
    // 0: stored, 8: deflated (the samples are stored: issue 42.4).
    const method = buf.readUInt16LE(p + 10);
    expect([0, 8]).toContain(method);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString();
    const lName = buf.readUInt16LE(local + 26);
    const lExtra = buf.readUInt16LE(local + 28);
    const data = buf.subarray(local + 30 + lName + lExtra, local + 30 + lName + lExtra + size);
    const raw = method === 8 ? zlib.inflateRawSync(data) : data;
    expect(zlib.crc32(raw) >>> 0).toBe(buf.readUInt32LE(p + 16));
    out[name] = raw.toString();
    p += 46 + nameLen + extra + comment;
  }
  return out;
}

/** Checks an archive with an independent reader when one is installed (python3 zipfile, then unzip). */
function externalZipCheck(file: string): void {
  const py = spawnSync(
    "python3",
    ["-c", "import sys,zipfile;z=zipfile.ZipFile(sys.argv[1]);r=z.testzip();print(r or 'OK')", file],
    {
      encoding: "utf8",
    },
  );
  if (!py.error) {
    expect(py.stdout.trim()).toBe("OK");
    return;
  }
  const uz = spawnSync("unzip", ["-tq", file], { encoding: "utf8" });
  if (!uz.error) expect(uz.status).toBe(0);
}

describe("demo catalogue seed", () => {
  it("creates at least 9 realistic templates over all six categories with real files", async () => {
    const t = await freshDb();
    const { inserted } = await seedDemoCatalogue(t.db, t.dataDir);
    expect(inserted).toBeGreaterThanOrEqual(9);
    const rows = await t.db.selectFrom("templates").selectAll().execute();
    expect(rows.length).toBe(inserted);
    expect(new Set(rows.map((r) => r.category))).toEqual(
      new Set(["portfolio", "saas", "ecommerce", "agency", "blog", "landing"]),
    );
    expect(rows.some((r) => r.featured === 1)).toBe(true);
    const onSale = rows.filter((r) => r.on_sale === 1);
    expect(onSale.length).toBeGreaterThan(0);
    for (const r of onSale) expect(r.original_price!).toBeGreaterThan(r.price);
    for (const r of rows) {
      expect(r.price).toBeGreaterThanOrEqual(5900);
      expect(r.price).toBeLessThanOrEqual(24900);
      expect(stringList(r.features).length).toBeGreaterThan(3);
      expect(stringList(r.tech_stack)).toEqual(expect.arrayContaining(["React", "TypeScript", "Tailwind CSS"]));
      const images = stringList(r.images);
      expect(images.length).toBeGreaterThan(0);
      expect(r.image_url).toBe(images[0]);
      for (const url of images) {
        const file = path.join(
          t.dataDir,
          "storage",
          "template-images",
          decodeURIComponent(url.replace("/files/template-images/", "")),
        );
        expect(fs.readFileSync(file, "utf8")).toMatch(/^<svg/);
      }
      const zip = fs.readFileSync(path.join(t.dataDir, "storage", "template-files", r.file_url!));
      const entries = unzip(zip);
      expect(entries["README.md"]).toContain(r.name);
      expect(Object.keys(entries)).toEqual(expect.arrayContaining(["LICENSE.txt", "package.json", "src/App.tsx"]));
      expect(JSON.parse(entries["package.json"]).name).toBe(r.slug);
    }
    externalZipCheck(path.join(t.dataDir, "storage", "template-files", rows[0].file_url!));
    expect(rows.filter((r) => r.featured === 1).length).toBe(4);
    expect(new Set(rows.map((r) => r.created_at)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
    for (const r of rows) expect(r.on_sale).toBe(r.original_price !== null && r.original_price > r.price ? 1 : 0);
    expect((await seedDemoCatalogue(t.db, t.dataDir)).inserted).toBe(0);
    expect((await t.db.selectFrom("templates").select("id").execute()).length).toBe(rows.length);
    await t.close();
  });

  it("seeds a data folder once: templates removed never come back, even from an empty shop", async () => {
    const t = await freshDb();
    const first = await seedDemoCatalogue(t.db, t.dataDir);
    expect(first.inserted).toBe(10);
    const rows = await t.db
      .selectFrom("templates")
      .select(["sample", "rating", "review_count", "sales_count"])
      .execute();
    // Marked as samples, with no invented figures.
    expect(rows.every((r) => r.sample === 1 && r.rating === 0 && r.review_count === 0 && r.sales_count === 0)).toBe(
      true,
    );
    await t.db.deleteFrom("templates").execute();
    expect((await seedDemoCatalogue(t.db, t.dataDir)).inserted).toBe(0);
    expect(await t.db.selectFrom("templates").select("id").execute()).toEqual([]);
    await t.close();
  });

  it("with force, only adds the missing slugs", async () => {
    const t = await freshDb();
    const first = await seedDemoCatalogue(t.db, t.dataDir);
    await t.db.deleteFrom("templates").where("slug", "=", "atelier").execute();
    expect((await seedDemoCatalogue(t.db, t.dataDir)).inserted).toBe(0);
    expect((await seedDemoCatalogue(t.db, t.dataDir, { force: true })).inserted).toBe(1);
    expect((await seedDemoCatalogue(t.db, t.dataDir, { force: true })).inserted).toBe(0);
    const rows = await t.db.selectFrom("templates").select("slug").execute();
    expect(rows.length).toBe(first.inserted);
    await t.close();
  });
});

describe("Remove sample templates (issue 29)", () => {
  it("deletes the sample templates nobody bought with their files, keeps a bought one, and they never come back", async () => {
    const t = await freshDb();
    await seedDemoCatalogue(t.db, t.dataDir);
    const samples = await t.db.selectFrom("templates").selectAll().execute();
    const bought = samples.find((s) => s.slug === "marginalia")!;
    const userId = "u-1";
    await t.db.insertInto("users").values({ id: userId, email: "buyer@example.com", full_name: null }).execute();
    await t.db
      .insertInto("purchases")
      .values({ id: "p-1", user_id: userId, template_id: bought.id, amount_paid: bought.price, license_key: "KEY-1" })
      .execute();
    const own = { ...samples[0], id: "own", slug: "own", name: "Own", sample: 0 };
    await t.db.insertInto("templates").values(own).execute();
    const version = async () =>
      (await t.db.selectFrom("catalogue_version").select("version").executeTakeFirstOrThrow()).version;
    const before = await version();

    expect(await removeSampleTemplates(t.db, t.dataDir)).toEqual({ removed: 9, kept: 1 });
    expect(await version()).toBe(before + 1);
    const left = await t.db.selectFrom("templates").select(["slug", "sample"]).orderBy("slug").execute();
    expect(left).toEqual([
      { slug: "marginalia", sample: 0 },
      { slug: "own", sample: 0 },
    ]);
    const storage = path.join(t.dataDir, "storage");
    // The removed ones' files are gone; the kept one's stay, and so do the files the owner's template shares.
    expect(fs.readdirSync(path.join(storage, "template-files")).sort()).toEqual(
      [bought.file_url!, own.file_url!].sort(),
    );
    expect(fs.existsSync(path.join(storage, "template-files", "launchpad.zip"))).toBe(false);
    expect(fs.readdirSync(path.join(storage, "template-images")).sort()).toEqual(
      [...new Set([...stringList(bought.images), ...stringList(own.images)])]
        .map((u) => u.replace("/files/template-images/", ""))
        .sort(),
    );
    expect(await removeSampleTemplates(t.db, t.dataDir)).toEqual({ removed: 0, kept: 0 });
    expect((await seedDemoCatalogue(t.db, t.dataDir)).inserted).toBe(0);
    await t.close();
  });
});
