import crypto from "node:crypto";
import { getPackage } from "#domain/catalogue";
import { sampleCatalogue } from "#domain/sample/catalogue";
import { sql, type Transaction } from "kysely";
import type { DB } from "../db/db.server";
import { listFromJson, nowIso, stringList, toJson } from "../db/json";
import { bookingAddonSchema, bookingFileSchema, paymentEntrySchema } from "../db/json-columns";
import type { Selectable, SqlBool } from "kysely";
import type { BookingsTable, BookingStatus, Database, TemplateCategory } from "../db/schema";
import { createStorage, signedUrl, StoragePathError } from "../storage/storage.server";
import { toTemplateDTO } from "../shop/templates.server";
import { announceCatalogueChange } from "../db/catalogue-version.server";
import { callOfRow, studioTime } from "../booking/call.server";
import { dropBookingPaymentReminders } from "../payments/ledger.server";
import { ledgerTotals } from "../payments/money.server";
import type { Env } from "../env.server";
import { isViewableImage, type BookingFilePurpose } from "#domain/booking-files";

/** The four summary cards, computed in SQL. */
export async function adminStats(db: DB) {
  const products = await db
    .selectFrom("purchases")
    .select(sql<number>`count(*)`.as("sales"))
    .where("status", "=", "active")
    .executeTakeFirstOrThrow();
  // Every money figure is the ledger's (issue 41.1): a refund comes off it, as in the month's money.
  const money = await ledgerTotals(db);
  const bookings = await db
    .selectFrom("bookings")
    .select([
      sql<number>`count(*)`.as("total"),
      sql<number>`coalesce(sum(case when status = 'pending' then 1 else 0 end), 0)`.as("pending"),
      // What open bookings still quote beyond what they paid: the pipeline, never revenue (issue 31).
      sql<number>`coalesce(sum(case when status not in ('completed','cancelled') and total_amount > amount_paid then total_amount - amount_paid else 0 end), 0)`.as(
        "pipeline",
      ),
    ])
    .executeTakeFirstOrThrow();
  // The top seller by real purchases, like Total Sales (the catalogue's sales_count is a shop
  // figure the demo seed pre-fills, not what this studio sold).
  const top = await db
    .selectFrom("purchases")
    .innerJoin("templates", "templates.id", "purchases.template_id")
    .select(["templates.name", sql<number>`count(*)`.as("sold")])
    .where("purchases.status", "=", "active")
    .groupBy("purchases.template_id")
    .orderBy("sold", "desc")
    .orderBy("templates.name")
    .limit(1)
    .executeTakeFirst();
  return {
    totalRevenue: money.received,
    productRevenue: money.products,
    bookingsPaid: money.bookings,
    totalSales: Number(products.sales),
    topTemplate: top ? { name: top.name, sales: Number(top.sold) } : null,
    totalBookings: Number(bookings.total),
    pendingBookings: Number(bookings.pending),
    pipeline: Number(bookings.pipeline),
  };
}

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

/** Rows per page of the console's lists. */
export const ADMIN_PAGE_SIZE = 25;

export type AdminListInput = { page?: number; q?: string };
export type Page<T> = { rows: T[]; total: number; page: number; pages: number; pageSize: number };

/** `%q%` for LIKE with the wildcards a person may type (`%`, `_`) taken literally (ESCAPE '\\'). */
function containing(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The page numbers of a list of `total` rows, the asked page kept inside them. */
function paging(total: number, asked: number | undefined) {
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(asked ?? 1)), pages);
  return { page, pages, offset: (page - 1) * ADMIN_PAGE_SIZE };
}

export type BookingFilter = { q?: string; status?: BookingStatus };

/** The bookings a console view shows: one status, and a search of name, email and company. */
function matchingBookings(db: DB, filter: BookingFilter) {
  let query = db.selectFrom("bookings");
  if (filter.status) query = query.where("status", "=", filter.status);
  const q = filter.q?.trim();
  if (q) {
    const like = containing(q);
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`full_name like ${like} escape '\\'`,
        sql<SqlBool>`email like ${like} escape '\\'`,
        sql<SqlBool>`company_name like ${like} escape '\\'`,
      ]),
    );
  }
  return query;
}

/** The studio's time zone, for the calls' times (passed in, like the db). */
export type StudioZone = Pick<Env, "STUDIO_TIMEZONE">;

/** Newest first; rowid breaks ties: it is part of every index, so rows are read in index order without a sort. */
async function bookingRows(db: DB, studio: StudioZone, filter: BookingFilter, limit: number, offset: number) {
  const rows = await matchingBookings(db, filter)
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy(sql`rowid`, "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((b) => toAdminBooking(b, studio));
}

/**
 * Bookings newest first, 25 a page, optionally one status and a search of name, email and
 * company (the `bookings_status_created` and `bookings_created_at` indexes order and filter them).
 */
export async function adminBookings(
  db: DB,
  studio: StudioZone,
  input: AdminListInput & BookingFilter = {},
): Promise<Page<ReturnType<typeof toAdminBooking>>> {
  const { n } = await matchingBookings(db, input)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const { page, pages, offset } = paging(total, input.page);
  return {
    rows: await bookingRows(db, studio, input, ADMIN_PAGE_SIZE, offset),
    total,
    page,
    pages,
    pageSize: ADMIN_PAGE_SIZE,
  };
}

/** Every booking of a view, newest first, read in batches (the CSV export streams them). */
export async function* eachBooking(db: DB, studio: StudioZone, filter: BookingFilter, batch = 500) {
  for (let offset = 0; ; offset += batch) {
    const rows = await bookingRows(db, studio, filter, batch, offset);
    yield* rows;
    if (rows.length < batch) return;
  }
}

/** One booking as the console shows it, or null. */
export async function adminBooking(db: DB, studio: StudioZone, id: string) {
  const row = await db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toAdminBooking(row, studio) : null;
}

/** The booking's call as the studio sees it: times in STUDIO_TIMEZONE, the visitor's zone, the links. */
function adminCall(b: Selectable<BookingsTable>, zone: StudioZone) {
  const call = callOfRow(b);
  if (!call) return null;
  const studio = studioTime(call, zone);
  const short = new Intl.DateTimeFormat("en-US", {
    timeZone: studio.zone,
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(new Date(call.startAt));
  return {
    status: call.status,
    startAt: call.startAt,
    endAt: call.endAt,
    /** "Tuesday, March 3, 2026, 2:00 PM – 2:20 PM (Coordinated Universal Time, UTC)" */
    studioTime: studio.full,
    /** "Mar 3, 2:00 PM" in the studio's zone, for the table */
    studioShort: short,
    studioZone: studio.zone,
    visitorZone: call.timezone,
    joinUrl: call.joinUrl,
    rescheduleUrl: call.rescheduleUrl,
    cancelUrl: call.cancelUrl,
  };
}

/** The next `limit` scheduled calls, soonest first (the overview's "Upcoming calls"). */
export async function upcomingCalls(db: DB, studio: StudioZone, now = new Date(), limit = 5) {
  const rows = await db
    .selectFrom("bookings")
    .selectAll()
    .where("meeting_status", "=", "scheduled")
    .where("meeting_start_at", ">", now.toISOString())
    .orderBy("meeting_start_at", "asc")
    .limit(limit)
    .execute();
  return rows.map((b) => toAdminBooking(b, studio));
}

/**
 * A booking's package and add-ons as it was made: its own name and prices (kept since issue 29);
 * a booking made before that was made at the sample studio's, which are read for it.
 */
function bookedItems(b: Pick<Selectable<BookingsTable>, "package_type" | "package_name" | "addons">) {
  const sampleTier = getPackage(sampleCatalogue, b.package_type);
  return {
    packageName: b.package_name ?? sampleTier?.name ?? b.package_type,
    addons: listFromJson(b.addons, bookingAddonSchema).map((a) => {
      const sample = sampleTier?.addOns.find((x) => x.id === a.id);
      return {
        id: a.id,
        quantity: a.quantity,
        name: a.name ?? sample?.name ?? a.id,
        price: a.price ?? sample?.price ?? 0,
      };
    }),
  };
}

function toAdminBooking(b: Selectable<BookingsTable>, studio: StudioZone) {
  return {
    ...bookedItems(b),
    call: adminCall(b, studio),
    /** The calendar said a call was booked and its time is still being read from Calendly. */
    callPending: !b.meeting_start_at && Boolean(b.calendly_event_uri),
    id: b.id,
    email: b.email,
    fullName: b.full_name,
    companyName: b.company_name,
    phone: b.phone,
    packageType: b.package_type,
    packagePrice: b.package_price,
    totalAmount: b.total_amount,
    amountPaid: b.amount_paid,
    paymentStatus: b.payment_status,
    paymentHistory: listFromJson(b.payment_history, paymentEntrySchema),
    projectDescription: b.project_description,
    projectGoals: stringList(b.project_goals),
    targetAudience: b.target_audience,
    inspirationUrls: stringList(b.inspiration_urls),
    desiredStartDate: b.desired_start_date,
    timelineUrgency: b.timeline_urgency,
    discountPercent: b.discount_percent,
    websiteUrl: b.website_url,
    isNewSite: Boolean(b.is_new_site),
    uploadedFiles: listFromJson(b.uploaded_files, bookingFileSchema),
    uploadedFileUrls: stringList(b.uploaded_file_urls),
    source: b.source,
    attribution: {
      utmSource: b.utm_source,
      utmMedium: b.utm_medium,
      utmCampaign: b.utm_campaign,
      referrer: b.referrer,
    },
    status: b.status,
    createdAt: b.created_at,
  };
}

export async function setBookingStatus(db: DB, id: string, status: BookingStatus) {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("bookings")
      .set({ status, updated_at: nowIso() })
      .where("id", "=", id)
      .executeTakeFirst();
    // A cancelled project is not chased for money (issue 31).
    if (status === "cancelled") await dropBookingPaymentReminders(trx, id);
    return Number(r.numUpdatedRows) > 0;
  });
}

/** Removes the booking's stored files, then the row. */
export async function deleteBooking(db: DB, dataDir: string, id: string) {
  const b = await db.selectFrom("bookings").select("uploaded_file_urls").where("id", "=", id).executeTakeFirst();
  if (!b) return false;
  createStorage(dataDir).removeMany("booking-files", stringList(b.uploaded_file_urls));
  await db.deleteFrom("bookings").where("id", "=", id).execute();
  return true;
}

/**
 * A one-hour signed link to one of a booking's files: inline to view (images only) or as an
 * attachment to download. Null when the booking does not list the file or it is not stored.
 */
export async function bookingFileLink(
  db: DB,
  dataDir: string,
  secret: string,
  id: string,
  relPath: string,
  purpose: BookingFilePurpose,
) {
  const b = await db.selectFrom("bookings").select("uploaded_file_urls").where("id", "=", id).executeTakeFirst();
  if (!b || !stringList(b.uploaded_file_urls).includes(relPath)) return null;
  if (purpose === "view" && !isViewableImage(relPath)) return null;
  let stored = false;
  try {
    stored = createStorage(dataDir).exists("booking-files", relPath);
  } catch (error) {
    if (!(error instanceof StoragePathError)) throw error;
  }
  if (!stored) return null;
  const url = signedUrl(secret, "booking-files", relPath);
  return { url: purpose === "view" ? `${url}&disposition=inline` : url };
}

/** The purchases a console view shows: a search of buyer email, template name and license key. */
function matchingPurchases(db: DB, filter: { q?: string }) {
  let query = db
    .selectFrom("purchases as p")
    .innerJoin("templates as t", "t.id", "p.template_id")
    .innerJoin("users as u", "u.id", "p.user_id");
  const q = filter.q?.trim();
  if (q) {
    const like = containing(q);
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`u.email like ${like} escape '\\'`,
        sql<SqlBool>`t.name like ${like} escape '\\'`,
        sql<SqlBool>`p.license_key like ${like} escape '\\'`,
      ]),
    );
  }
  return query;
}

function purchaseRows(db: DB, filter: { q?: string }, limit: number, offset: number) {
  return matchingPurchases(db, filter)
    .select([
      "p.id",
      "p.amount_paid as amountPaid",
      "p.license_key as licenseKey",
      "p.created_at as createdAt",
      "p.status",
      "p.revoked_at as revokedAt",
      "t.name as templateName",
      "t.slug as templateSlug",
      "u.email",
      "u.full_name as fullName",
      // The sale's card payment in the ledger (issue 31), and what of it was refunded: the console's Refund.
      (eb) =>
        eb
          .selectFrom("payments as pay")
          .select("pay.id")
          .whereRef("pay.purchase_id", "=", "p.id")
          .where("pay.kind", "=", "payment")
          .where("pay.method", "=", "card")
          // The newest (a purchase revoked and bought again has two); rowid order is the index's own.
          .orderBy(sql`pay.rowid`, "desc")
          .limit(1)
          .as("paymentId"),
      (eb) =>
        eb
          .selectFrom("payments as ref")
          .select((r) => r.fn.coalesce(r.fn.sum<number>("ref.amount"), r.lit(0)).as("sum"))
          .whereRef("ref.purchase_id", "=", "p.id")
          .where("ref.kind", "=", "refund")
          .as("refunded"),
    ])
    .orderBy("p.created_at", "desc")
    .orderBy(sql`p.rowid`, "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Purchases newest first, 25 a page, optionally a search of buyer email, template name and license key. */
export async function adminPurchases(db: DB, input: AdminListInput = {}) {
  const { n } = await matchingPurchases(db, input)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const { page, pages, offset } = paging(total, input.page);
  return {
    rows: await purchaseRows(db, input, ADMIN_PAGE_SIZE, offset),
    total,
    page,
    pages,
    pageSize: ADMIN_PAGE_SIZE,
  };
}

/** Every purchase of a view, newest first, read in batches (the CSV export streams them). */
export async function* eachPurchase(db: DB, filter: { q?: string }, batch = 500) {
  for (let offset = 0; ; offset += batch) {
    const rows = await purchaseRows(db, filter, batch, offset);
    yield* rows;
    if (rows.length < batch) return;
  }
}
