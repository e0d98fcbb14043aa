import crypto from "node:crypto";
import { type Transaction } from "kysely";
import type { DB } from "../db/db.server";
import { toTemplateDTO } from "../shop/templates.server";
import { nowIso, stringList, toJson } from "../db/json";
import type { Database, TemplateCategory } from "../db/schema";
import { createStorage } from "../storage/storage.server";
import { announceCatalogueChange } from "../db/catalogue-version.server";

export async function adminTemplates(db: DB) {
  const rows = await db.selectFrom("templates").selectAll().orderBy("created_at", "desc").execute();
  return rows.map((r) => ({ ...toTemplateDTO(r), fileUrl: r.file_url, sample: r.sample === 1 }));
}

/**
 * "Remove sample templates" (issue 29): deletes the sample templates nobody bought, with their
 * preview images and archives (files another template still uses stay); a sample someone bought
 * stays, no longer marked sample, so its buyer keeps their download. One transaction; the page
 * cache is told. The seed never brings them back (seeding is remembered per data folder).
 */
export async function removeSampleTemplates(db: DB, dataDir: string): Promise<{ removed: number; kept: number }> {
  const { removed, kept, images, archives } = await changeCatalogue(db, async (trx) => {
    const samples = await trx
      .selectFrom("templates")
      .select(["id", "images", "file_url"])
      .where("sample", "=", 1)
      .execute();
    if (!samples.length) return { removed: 0, kept: 0, images: [], archives: [] };
    const bought = new Set(
      (
        await trx
          .selectFrom("purchases")
          .select("template_id")
          .where(
            "template_id",
            "in",
            samples.map((s) => s.id),
          )
          .execute()
      ).map((p) => p.template_id),
    );
    const gone = samples.filter((s) => !bought.has(s.id));
    if (gone.length)
      await trx
        .deleteFrom("templates")
        .where(
          "id",
          "in",
          gone.map((g) => g.id),
        )
        .execute();
    if (bought.size)
      await trx
        .updateTable("templates")
        .set({ sample: 0 })
        .where("id", "in", [...bought])
        .execute();
    const left = await trx.selectFrom("templates").select(["images", "file_url"]).execute();
    const usedImages = new Set(left.flatMap((t) => stringList(t.images)));
    const usedArchives = new Set(left.map((t) => t.file_url));
    const prefix = "/files/template-images/";
    return {
      removed: gone.length,
      kept: bought.size,
      images: gone
        .flatMap((g) => stringList(g.images))
        .filter((u) => !usedImages.has(u) && u.startsWith(prefix))
        .map((u) => decodeURIComponent(u.slice(prefix.length))),
      archives: gone.map((g) => g.file_url).filter((f): f is string => Boolean(f) && !usedArchives.has(f)),
    };
  });
  // After the commit: a failed delete leaves a stray file, never a template without its files.
  const storage = createStorage(dataDir);
  storage.removeMany("template-images", images);
  storage.removeMany("template-files", archives);
  return { removed, kept };
}

/** Lowercased, spaces to dashes, anything else dropped. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .trim()
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A slug not used by another template (suffixing -2, -3 … when taken). */
export async function uniqueSlug(db: DB, wanted: string, exceptId?: string): Promise<string> {
  const base = slugify(wanted) || "template";
  for (let i = 1; i < 1000; i++) {
    const candidate = i === 1 ? base : `${base}-${i}`;
    let q = db.selectFrom("templates").select("id").where("slug", "=", candidate);
    if (exceptId) q = q.where("id", "!=", exceptId);
    if (!(await q.executeTakeFirst())) return candidate;
  }
  return `${base}-${crypto.randomBytes(3).toString("hex")}`;
}

export type TemplateInput = {
  name: string;
  slug?: string;
  tagline: string;
  description: string;
  category: TemplateCategory;
  price: number;
  originalPrice: number | null;
  features: string[];
  included: string[];
  techStack: string[];
  tags: string[];
  images: string[];
  fileUrl: string | null;
};

function templateColumns(input: TemplateInput) {
  const original = input.originalPrice && input.originalPrice > 0 ? input.originalPrice : null;
  return {
    name: input.name,
    tagline: input.tagline,
    description: input.description,
    category: input.category,
    price: input.price,
    original_price: original,
    on_sale: original !== null && original > input.price ? 1 : 0,
    features: toJson(input.features),
    included: toJson(input.included),
    tech_stack: toJson(input.techStack),
    tags: toJson(input.tags),
    images: toJson(input.images),
    image_url: input.images[0] ?? null,
    file_url: input.fileUrl,
  };
}

/** A change to the templates and its announcement, in one transaction. */
function changeCatalogue<T>(db: DB, change: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const result = await change(trx);
    await announceCatalogueChange(trx);
    return result;
  });
}

export async function createTemplate(db: DB, input: TemplateInput) {
  const id = crypto.randomUUID();
  const slug = await uniqueSlug(db, input.slug || input.name);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("templates")
      .values({ id, slug, ...templateColumns(input), featured: 0, rating: 0, review_count: 0, sales_count: 0 })
      .execute();
    await announceCatalogueChange(trx);
  });
  return { id, slug };
}

export async function updateTemplate(db: DB, id: string, input: TemplateInput) {
  const slug = await uniqueSlug(db, input.slug || input.name, id);
  const updated = await changeCatalogue(db, (trx) =>
    trx
      .updateTable("templates")
      .set({ slug, ...templateColumns(input), updated_at: nowIso() })
      .where("id", "=", id)
      .executeTakeFirst(),
  );
  return { updated: Number(updated.numUpdatedRows) > 0, slug };
}

export async function setFeatured(db: DB, id: string, featured: boolean) {
  const r = await changeCatalogue(db, (trx) =>
    trx
      .updateTable("templates")
      .set({ featured: featured ? 1 : 0, updated_at: nowIso() })
      .where("id", "=", id)
      .executeTakeFirst(),
  );
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteTemplate(db: DB, id: string) {
  const r = await changeCatalogue(db, (trx) => trx.deleteFrom("templates").where("id", "=", id).executeTakeFirst());
  return Number(r.numDeletedRows) > 0;
}
