import crypto from "node:crypto";
import type { DB } from "../db/db.server";
import { feedAddress, MAX_CALDAV_PASSWORD, MAX_CALDAV_USERNAME, MAX_SOURCE_LABEL } from "#domain/calendar-sources";
import { DomainError } from "../errors";
import { CALDAV_REFUSED, readCalDav } from "./caldav.server";
import { FeedError, feedUrl, fetchFeed, type FeedValidators } from "./feed-fetch.server";
import type { Interval } from "./slots.server";

/**
 * The owner's calendars (issue 43.3): ICS feeds added by their secret address, and CalDAV
 * calendars by their address, user name and app password, each synced on its own. A sync asks
 * again with the validators of the last answer (a feed's 304, a CalDAV collection's unchanged
 * ctag: the busy times stand), reads the busy times of the window ahead, and keeps them; a sync
 * that fails keeps the busy times it had and records its error, so the slots never open up because
 * a feed is down, and the console can say which source fails and since when.
 */

export const MAX_SOURCES = 20;
export const MAX_LABEL = MAX_SOURCE_LABEL;
/** Busy times kept from a day before now to this long after the booking window's end. */
const KEPT_BEYOND_WINDOW_MS = 2 * 86_400_000;
const DAY = 86_400_000;

export type SourceView = {
  id: string;
  kind: "ics" | "caldav";
  label: string;
  /** The address's host only: the rest of a secret iCal address is the secret. */
  host: string;
  busyCount: number;
  syncedAt: string | null;
  error: string | null;
  errorAt: string | null;
};

/** A source's field refused, by the field's name in the add forms. */
export class SourceFieldError extends DomainError {
  constructor(
    readonly field: "label" | "url" | "username" | "password",
    message: string,
  ) {
    super("invalid", message);
    this.name = "SourceFieldError";
  }
}

const labelOf = (label: string) => {
  const trimmed = label.trim() || "Calendar";
  if (trimmed.length > MAX_LABEL)
    throw new SourceFieldError("label", `Please keep the name under ${MAX_LABEL} characters`);
  return trimmed;
};

/** Refuses a source past MAX_SOURCES. */
async function checkRoom(db: DB) {
  const { n } = await db
    .selectFrom("calendar_sources")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  if (n >= MAX_SOURCES) throw new DomainError("conflict", `At most ${MAX_SOURCES} calendars`);
}

/** Adds an ICS feed by its address; refuses one that is not http(s), and more than MAX_SOURCES. */
export async function addFeedSource(db: DB, input: { label: string; url: string }): Promise<string> {
  const label = labelOf(input.label);
  let url: URL;
  try {
    url = feedUrl(input.url);
  } catch (error) {
    throw new SourceFieldError("url", error instanceof Error ? error.message : String(error));
  }
  await checkRoom(db);
  const id = crypto.randomUUID();
  await db.insertInto("calendar_sources").values({ id, kind: "ics", label, url: url.href }).execute();
  return id;
}

/**
 * Adds a CalDAV calendar by its address (the calendar's own, or its account's), the account's user
 * name and an app password; refuses an address the feeds would refuse, a missing user name or
 * password, and more than MAX_SOURCES.
 *
 * The password is kept as it was typed, in the database: the server sends it to the CalDAV server
 * at each read, so it cannot be hashed. It stays in the data folder (and so in every backup of
 * it: keep backups as private as the folder), is never sent back to the browser (`listSources`
 * leaves it out) and goes with the source when it is removed. It is an app password, which the
 * owner can revoke at their provider without changing their own.
 */
export async function addCalDavSource(
  db: DB,
  input: { label: string; url: string; username: string; password: string },
): Promise<string> {
  const label = labelOf(input.label);
  const checked = feedAddress(input.url, "caldav");
  if ("error" in checked) throw new SourceFieldError("url", checked.error);
  const username = input.username.trim();
  if (!username) throw new SourceFieldError("username", "Enter the user name of your calendar account");
  if (username.length > MAX_CALDAV_USERNAME || username.includes(":"))
    throw new SourceFieldError(
      "username",
      username.includes(":")
        ? "A user name cannot contain “:”"
        : `Please keep the user name under ${MAX_CALDAV_USERNAME} characters`,
    );
  if (!input.password) throw new SourceFieldError("password", "Enter an app password for this calendar");
  if (input.password.length > MAX_CALDAV_PASSWORD)
    throw new SourceFieldError("password", `Please keep the password under ${MAX_CALDAV_PASSWORD} characters`);
  await checkRoom(db);
  const id = crypto.randomUUID();
  await db
    .insertInto("calendar_sources")
    .values({ id, kind: "caldav", label, url: checked.url.href, username, password: input.password })
    .execute();
  return id;
}

/** Removes a source and its busy times; one that is not there (removed meanwhile) is refused. */
export async function removeSource(db: DB, id: string): Promise<void> {
  const { numDeletedRows } = await db.deleteFrom("calendar_sources").where("id", "=", id).executeTakeFirst();
  if (Number(numDeletedRows) === 0) throw new DomainError("not-found", "That calendar is not there any more");
}

/** The sources as the console lists them, oldest first. */
export async function listSources(db: DB): Promise<SourceView[]> {
  const rows = await db.selectFrom("calendar_sources").selectAll().orderBy("created_at").orderBy("id").execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    label: r.label,
    host: hostOf(r.url),
    busyCount: parseBusy(r.busy).length,
    syncedAt: r.synced_at,
    error: r.error,
    errorAt: r.error_at,
  }));
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
};

/** A stored busy list, or nothing for anything that is not one. */
function parseBusy(json: string): Interval[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((v) =>
      Array.isArray(v) && typeof v[0] === "number" && typeof v[1] === "number" && v[1] > v[0]
        ? [{ start: v[0], end: v[1] }]
        : [],
    );
  } catch {
    return [];
  }
}

export type SyncOptions = {
  now: number;
  /** The studio's zone (all-day and floating times). */
  timeZone: string;
  /** The booking window: busy times beyond it are not kept. */
  windowDays: number;
  ownerEmails?: readonly string[];
  /** For tests of the limits: the fetch's own (10 MB, 10 s by default). */
  fetchLimits?: { maxBytes?: number; timeoutMs?: number };
};

export type SyncResult =
  | { ok: true; changed: boolean; busy: number }
  /** `refused`: a CalDAV server refused the user name or app password. */
  | { ok: false; error: string; refused?: true };

/** What a source's read brought: nothing new, or its busy times and the validators to hold. */
type Read = { changed: false } | { changed: true; busy: Interval[]; etag: string | null; lastModified: string | null };

/**
 * Syncs one source: its busy times now, or its error (the busy times it had are kept). Errors of
 * the feed are the result, never thrown; the database's are thrown.
 */
export async function syncSource(db: DB, id: string, options: SyncOptions): Promise<SyncResult> {
  const source = await db.selectFrom("calendar_sources").selectAll().where("id", "=", id).executeTakeFirst();
  if (!source) throw new DomainError("not-found", "That calendar is not there any more");
  const at = new Date(options.now).toISOString();
  const window = {
    start: options.now - DAY,
    end: options.now + options.windowDays * DAY + KEPT_BEYOND_WINDOW_MS,
  };
  // The iCalendar reading (ical.js, Temporal's polyfill) loads at the first sync, not at every start (issue 42.4).
  const { busyFromIcs, FeedFormatError, MAX_BUSY } = await import("./ics-busy.server");
  const busyOf = (text: string) =>
    busyFromIcs(text, { window, timeZone: options.timeZone, ownerEmails: options.ownerEmails });
  try {
    let read: Read;
    if (source.kind === "caldav") {
      // A collection whose ctag did not change since a read of the same day, window and zone is
      // not read again: the busy times kept are still its own.
      const context = JSON.stringify([
        Math.floor(options.now / DAY),
        options.windowDays,
        options.timeZone,
        [...(options.ownerEmails ?? [])].map((e) => e.toLowerCase()).sort(),
      ]);
      const answer = await readCalDav(
        { url: source.url, username: source.username ?? "", password: source.password ?? "" },
        { window, held: source.etag, context },
        options.fetchLimits,
      );
      read = answer.changed
        ? {
            changed: true,
            // Each object is a VCALENDAR of its own (its VTIMEZONEs with it).
            busy: answer.objects.flatMap(busyOf).slice(0, MAX_BUSY),
            // The CalDAV version (ctags and the read's context) where a feed keeps its ETag.
            etag: answer.version,
            lastModified: null,
          }
        : { changed: false };
    } else {
      // Asked with the last answer's validators the same day only: the window moves with the days,
      // and busy times kept from an answer read days ago would stop short of its far end.
      const sameDay = source.synced_at?.slice(0, 10) === at.slice(0, 10);
      const held: FeedValidators = sameDay
        ? { etag: source.etag, lastModified: source.last_modified }
        : { etag: null, lastModified: null };
      const answer = await fetchFeed(source.url, held, options.fetchLimits);
      read = answer.changed
        ? { changed: true, busy: busyOf(answer.text), etag: answer.etag, lastModified: answer.lastModified }
        : { changed: false };
    }
    if (!read.changed) {
      await db
        .updateTable("calendar_sources")
        .set({ synced_at: at, error: null, error_at: null })
        .where("id", "=", id)
        .execute();
      return { ok: true, changed: false, busy: parseBusy(source.busy).length };
    }
    const busy = read.busy.sort((a, b) => a.start - b.start);
    await db
      .updateTable("calendar_sources")
      .set({
        busy: JSON.stringify(busy.map((b) => [b.start, b.end])),
        etag: read.etag,
        last_modified: read.lastModified,
        synced_at: at,
        error: null,
        error_at: null,
      })
      .where("id", "=", id)
      .execute();
    return { ok: true, changed: true, busy: busy.length };
  } catch (error) {
    if (!(error instanceof FeedError) && !(error instanceof FeedFormatError)) throw error;
    const message =
      error instanceof FeedFormatError
        ? source.kind === "caldav"
          ? "The CalDAV server sent an event that is not iCalendar"
          : "The feed is not a calendar (iCalendar)"
        : error.message;
    await db
      .updateTable("calendar_sources")
      .set({ error: message, error_at: source.error_at ?? at })
      .where("id", "=", id)
      .execute();
    return message === CALDAV_REFUSED ? { ok: false, error: message, refused: true } : { ok: false, error: message };
  }
}

/** How often the owner's calendars are read again (issue 43.3). */
export const SYNC_INTERVAL_MS = 5 * 60_000;

/**
 * Syncs every source, one after the other (a slow feed delays the others, never fails them):
 * each its result, by id. A source removed meanwhile is skipped.
 */
export async function syncAllSources(db: DB, options: SyncOptions): Promise<Map<string, SyncResult>> {
  const ids = await db.selectFrom("calendar_sources").select("id").orderBy("created_at").execute();
  const results = new Map<string, SyncResult>();
  for (const { id } of ids) {
    try {
      results.set(id, await syncSource(db, id, options));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return results;
}

/** Every source's last known busy times: what the slots are computed against. */
export async function busyTimes(db: DB): Promise<Interval[]> {
  const rows = await db.selectFrom("calendar_sources").select("busy").execute();
  return rows.flatMap((r) => parseBusy(r.busy));
}
