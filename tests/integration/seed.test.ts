import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
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
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString();
    const lName = buf.readUInt16LE(local + 26);
    const lExtra = buf.readUInt16LE(local + 28);
    const data = buf.subarray(local + 30 + lName + lExtra, local + 30 + lName + lExtra + size);
    const raw = zlib.inflateRawSync(data);
    expect(zlib.crc32(raw) >>> 0).toBe(buf.readUInt32LE(p + 16));
    out[name] = raw.toString();
    p += 46 + nameLen + extra + comment;
  }
  return out;
}

describe("demo catalogue seed", () => {
  it("creates at least 9 realistic templates over all six categories with real files", async () => {
    const t = await freshDb();
    const { inserted } = await seedDemoCatalogue(t.db, t.dataDir);
    expect(inserted).toBeGreaterThanOrEqual(9);
    const rows = await t.db.selectFrom("templates").selectAll().execute();
    expect(rows.length).toBe(inserted);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(["portfolio", "saas", "ecommerce", "agency", "blog", "landing"]));
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
        const file = path.join(t.dataDir, "storage", "template-images", decodeURIComponent(url.replace("/files/template-images/", "")));
        expect(fs.readFileSync(file, "utf8")).toMatch(/^<svg/);
      }
      const zip = fs.readFileSync(path.join(t.dataDir, "storage", "template-files", r.file_url!));
      const entries = unzip(zip);
      expect(entries["README.md"]).toContain(r.name);
      expect(Object.keys(entries)).toEqual(expect.arrayContaining(["LICENSE.txt", "package.json", "src/App.tsx"]));
    }
    expect((await seedDemoCatalogue(t.db, t.dataDir)).inserted).toBe(0);
    await t.close();
  });
});
