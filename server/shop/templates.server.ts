import type { DB } from "../db/db.server";
import { keptUntilCatalogueChange } from "../db/catalogue-version.server";
import { stringList } from "../db/json";
import type { TemplateRow } from "../db/schema";

/** A template as the shop shows it: lists parsed, flags as booleans, money in cents. */
export type TemplateDTO = {
  id: string;
  name: string;
  slug: string;
  tagline: string;
  description: string;
  category: TemplateRow["category"];
  price: number;
  originalPrice: number | null;
  onSale: boolean;
  featured: boolean;
  rating: number;
  reviewCount: number;
  salesCount: number;
  features: string[];
  included: string[];
  techStack: string[];
  tags: string[];
  images: string[];
  imageUrl: string | null;
  createdAt: string;
};

/** A template's pictures: the stored list, and the one a card shows (the set image, else the first). */
function pictures(r: Pick<TemplateRow, "images" | "image_url">): Pick<TemplateDTO, "images" | "imageUrl"> {
  const images = stringList(r.images);
  return { images, imageUrl: r.image_url ?? images[0] ?? null };
}

export function toTemplateDTO(r: TemplateRow): TemplateDTO {
  const { images, imageUrl } = pictures(r);
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    tagline: r.tagline,
    description: r.description,
    category: r.category,
    price: r.price,
    originalPrice: r.original_price,
    onSale: r.on_sale === 1 && r.original_price !== null && r.original_price > r.price,
    featured: r.featured === 1,
    rating: r.rating,
    reviewCount: r.review_count,
    salesCount: r.sales_count,
    features: stringList(r.features),
    included: stringList(r.included),
    techStack: stringList(r.tech_stack),
    tags: stringList(r.tags),
    images,
    imageUrl,
    createdAt: r.created_at,
  };
}

/** What a card in the catalogue shows (the detail page loads the rest by slug). */
export type TemplateCardDTO = Pick<
  TemplateDTO,
  | "id"
  | "slug"
  | "name"
  | "tagline"
  | "category"
  | "price"
  | "originalPrice"
  | "onSale"
  | "featured"
  | "rating"
  | "reviewCount"
  | "salesCount"
  | "tags"
  | "imageUrl"
  | "createdAt"
>;

/** All templates, newest first, as cards: the list page's payload stays small. */
export async function listTemplates(db: DB): Promise<TemplateCardDTO[]> {
  const rows = await db.selectFrom("templates").selectAll().orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map((r) => {
    const t = toTemplateDTO(r);
    return {
      id: t.id,
      slug: t.slug,
      name: t.name,
      tagline: t.tagline,
      category: t.category,
      price: t.price,
      originalPrice: t.originalPrice,
      onSale: t.onSale,
      featured: t.featured,
      rating: t.rating,
      reviewCount: t.reviewCount,
      salesCount: t.salesCount,
      tags: t.tags,
      imageUrl: t.imageUrl,
      createdAt: t.createdAt,
    };
  });
}

export type TeaserTemplate = Pick<TemplateDTO, "id" | "slug" | "name" | "category" | "price" | "images" | "imageUrl">;

/**
 * Featured templates (limit 4), topped up from the newest when fewer than 4 are featured; kept in
 * memory until the catalogue changes (the home page asks at every render).
 */
export function featuredTemplates(db: DB, limit = 4): Promise<TeaserTemplate[]> {
  return keptFeatured(db, String(limit));
}

const keptFeatured = keptUntilCatalogueChange((db, limit) => readFeatured(db, Number(limit)));

async function readFeatured(db: DB, limit: number): Promise<TeaserTemplate[]> {
  const cols = ["id", "slug", "name", "category", "price", "images", "image_url", "created_at"] as const;
  const featured = await db
    .selectFrom("templates")
    .select(cols)
    .where("featured", "=", 1)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
  let rows = featured;
  if (featured.length < limit) {
    const have = new Set(featured.map((f) => f.id));
    const newest = await db
      .selectFrom("templates")
      .select(cols)
      .orderBy("created_at", "desc")
      .limit(limit * 2)
      .execute();
    rows = [...featured, ...newest.filter((n) => !have.has(n.id))].slice(0, limit);
  }
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    category: r.category,
    price: r.price,
    ...pictures(r),
  }));
}

export async function templateBySlug(db: DB, slug: string): Promise<TemplateDTO | null> {
  const row = await db.selectFrom("templates").selectAll().where("slug", "=", slug).executeTakeFirst();
  return row ? toTemplateDTO(row) : null;
}

/** Up to 3 templates of the same category, the current one excluded. */
export async function relatedTemplates(
  db: DB,
  templateId: string,
  category: string,
  limit = 3,
): Promise<TemplateDTO[]> {
  const rows = await db
    .selectFrom("templates")
    .selectAll()
    .where("category", "=", category as TemplateRow["category"])
    .where("id", "!=", templateId)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
  return rows.map(toTemplateDTO);
}
