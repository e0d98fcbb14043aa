import crypto from "node:crypto";
import type { DB } from "../db/db.server";
import { readFlag, setFlag } from "../db/flags.server";
import type { Env } from "../env.server";
import { CALL_COLUMNS, callOfRow, callPlace } from "./call.server";
import { eventLines, icsCalendar } from "./ics.server";

/**
 * The owner's calls as a calendar feed (issue 43.8): `/calendar/<secret>.ics`, to subscribe to from
 * any calendar app. The address is the secret (32 random bytes, kept in `studio_flags`, made on
 * first use); "Make a new address" in Settings → Calendar replaces it, and the old one answers 404.
 * The feed holds the calls of the last week and every call ahead, cancelled ones as CANCELLED so a
 * subscribed calendar drops them.
 */

const FLAG = "calendar_feed_secret";
const KEPT_PAST_MS = 7 * 86_400_000;
const MAX_CALLS = 1000;

/** The feed's secret, made on first use. */
export async function feedSecret(db: DB): Promise<string> {
  const kept = await readFlag(db, FLAG);
  if (kept) return kept;
  await db
    .insertInto("studio_flags")
    .values({ key: FLAG, value: crypto.randomBytes(32).toString("base64url") })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  return feedSecret(db);
}

/** A new secret: the old address stops answering. */
export async function newFeedSecret(db: DB): Promise<string> {
  const value = crypto.randomBytes(32).toString("base64url");
  await setFlag(db, FLAG, value);
  return value;
}

/** The feed's path for a secret. */
export const feedPath = (secret: string) => `/calendar/${secret}.ics`;

/** Whether `given` is the secret (compared in constant time). */
async function isSecret(db: DB, given: string): Promise<boolean> {
  const secret = await readFlag(db, FLAG);
  if (!secret) return false;
  const a = Buffer.from(secret);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The feed's text for `secret`, or null when it is not the feed's secret. */
export async function ownerFeed(
  db: DB,
  secret: string,
  e: Pick<Env, "APP_URL" | "STUDIO_EMAIL"> & { studioName: string },
  now = new Date(),
): Promise<string | null> {
  if (secret.length > 100 || !(await isSecret(db, secret))) return null;
  const rows = await db
    .selectFrom("bookings")
    .select([...CALL_COLUMNS, "company_name", "package_name"])
    .where("meeting_start_at", "is not", null)
    .where("meeting_end_at", ">", new Date(now.getTime() - KEPT_PAST_MS).toISOString())
    .orderBy("meeting_start_at")
    .limit(MAX_CALLS)
    .execute();
  const host = new URL(e.APP_URL).hostname;
  const events = rows.flatMap((row) => {
    const call = callOfRow(row);
    if (!call) return [];
    const place = callPlace(call);
    const admin = `${e.APP_URL}/admin?tab=bookings&booking=${encodeURIComponent(call.bookingId)}`;
    return [
      eventLines({
        bookingId: call.bookingId,
        host,
        startAt: call.startAt,
        endAt: call.endAt,
        sequence: call.sequence,
        stampAt: call.updatedAt,
        status: call.status === "scheduled" ? "scheduled" : "cancelled",
        summary: `Consultation: ${call.name} (${row.company_name})`,
        description: [
          `${row.package_name} Package`,
          `Client: ${call.name} <${call.email}>${call.phone ? `, ${call.phone}` : ""}`,
          place ? `Where: ${place}` : "",
          `Booking: ${admin}`,
        ]
          .filter(Boolean)
          .join("\n"),
        joinUrl: call.joinUrl,
        location: place,
        organizer: { name: e.studioName, email: e.STUDIO_EMAIL },
        attendee: { name: call.name, email: call.email },
      }),
    ];
  });
  return icsCalendar("PUBLISH", events, `${e.studioName}: consultation calls`);
}
