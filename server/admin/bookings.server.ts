import { getPackage } from "#domain/catalogue";
import { sampleCatalogue } from "#domain/sample/catalogue";
import { sql } from "kysely";
import type { DB } from "../db/db.server";
import { listFromJson, nowIso, stringList } from "../db/json";
import { bookingAddonSchema, bookingFileSchema, paymentEntrySchema } from "../db/json-columns";
import type { Selectable, SqlBool } from "kysely";
import type { BookingsTable, BookingStatus } from "../db/schema";
import { createStorage, signedUrl, StoragePathError } from "../storage/storage.server";
import { callOfRow, studioTime } from "../booking/call.server";
import { dropBookingPaymentReminders } from "../payments/ledger.server";
import type { Env } from "../env.server";
import { isViewableImage, type BookingFilePurpose } from "#domain/booking-files";
import { ADMIN_PAGE_SIZE, containing, paging, type AdminListInput, type Page } from "./lists";

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
    /** Booked in the studio's own calendar (the console can move and cancel it) or in Calendly. */
    provider: call.provider,
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
  const storage = createStorage(dataDir);
  storage.removeMany("booking-files", stringList(b.uploaded_file_urls));
  // Its proposals go with it (their rows and trails by cascade), so do their signed PDFs.
  const proposals = await db.selectFrom("proposals").select("number").distinct().where("booking_id", "=", id).execute();
  for (const p of proposals) storage.removeMany("documents", storage.list("documents", `proposals/${p.number}/`));
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
