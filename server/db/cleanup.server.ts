import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { uploadedFileSchema } from "#domain/booking-state";
import { DRAFT_TTL_SECONDS, EMPTY_DRAFT_TTL_SECONDS } from "#domain/booking-state";
import type { Storage } from "../storage/storage.server";
import type { DB } from "./db.server";
import { listFromJson } from "./json";
import { log } from "../log.server";

/** How often the running server removes expired rows (server/boot.server.ts); also once at start. */
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Magic-link tokens are kept for an hour after they are issued, spent or not: the per-address
 * and per-client limits count the last hour's rows (server/auth/magic-link.server.ts). A token
 * older than that has expired (10 minutes) and is no longer counted.
 */
export const TOKEN_RETENTION_MS = 60 * 60 * 1000;
/** Rows deleted per statement; the event loop gets a turn between batches. */
const BATCH = 500;

/**
 * Processed Calendly webhooks are remembered this long (decision 014): Calendly retries a delivery
 * for at most a day and a signature is stale after 3 minutes, so an older replay cannot arrive.
 */
export const WEBHOOK_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export type CleanupResult = {
  sessions: number;
  drafts: number;
  tokens: number;
  files: number;
  uploads: number;
  webhooks?: number;
};

/** An upload's temporary file untouched this long belongs to a request that died (a crash). */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;

export type CleanupOptions = {
  /** Where abandoned drafts' uploads live; without it, their files are left alone. */
  storage?: Storage;
  /** Stops between batches (shutdown). */
  signal?: AbortSignal;
  batchSize?: number;
};

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether a draft's `data` records no completed step (corrupt JSON counts as none). */
const noCompletedStep = sql<boolean>`(case when json_valid(data) then coalesce(json_array_length(data, '$.completed'), 0) else 0 end) = 0`;

/**
 * Removes what has expired by `now`:
 * - sessions past `expires_at` (signed in: 30 days; without a user: 10 minutes);
 * - booking drafts older than their cookie (30 days from creation), and drafts with no completed
 *   step (nothing typed is kept in them) a day after their last change; an unconfirmed draft's
 *   uploaded files go with it unless a booking row holds them;
 * - magic-link tokens issued more than an hour ago (spent or expired, and outside the limit's window);
 * - Calendly webhooks processed more than WEBHOOK_RETENTION_MS ago;
 * - temporary files of uploads untouched for an hour (their request died with a crash).
 * Deletes in batches so that a large backlog never holds the write lock for long.
 */
export async function cleanupExpired(
  db: DB,
  now: Date = new Date(),
  opts: CleanupOptions = {},
): Promise<CleanupResult> {
  const batch = opts.batchSize ?? BATCH;
  const result: CleanupResult = { sessions: 0, drafts: 0, tokens: 0, files: 0, uploads: 0 };
  if (opts.storage) result.uploads = removeStaleUploads(opts.storage.uploadTmpDir, now.getTime() - STALE_UPLOAD_MS);
  const stopped = () => opts.signal?.aborted === true;
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();

  /** Deletes the rows of `table` whose `column` is before `bound` (or at it, with `inclusive`), a batch at a time. */
  const deleteOlder = async (
    table: "sessions" | "auth_tokens" | "calendly_webhook_events",
    column: "expires_at" | "created_at" | "received_at",
    bound: string,
    inclusive: boolean,
  ): Promise<number> => {
    let total = 0;
    while (!stopped()) {
      const oldRows = db
        .selectFrom(table)
        .select(sql<string>`rowid`.as("r"))
        .where(sql.ref(column), inclusive ? "<=" : "<", bound)
        .limit(batch);
      const r = await db
        .deleteFrom(table)
        .where(sql<string>`rowid`, "in", oldRows)
        .executeTakeFirst();
      const n = Number(r.numDeletedRows);
      total += n;
      if (n < batch) break;
      await yieldToEventLoop();
    }
    return total;
  };

  result.sessions = await deleteOlder("sessions", "expires_at", now.toISOString(), true);

  const createdBefore = at(DRAFT_TTL_SECONDS * 1000);
  const emptyUpdatedBefore = at(EMPTY_DRAFT_TTL_SECONDS * 1000);
  while (!stopped()) {
    const rows = await db
      .selectFrom("booking_drafts")
      .select(["id", "booking_id", "uploaded_files", "confirmed_at"])
      .where((eb) =>
        eb.or([
          eb("created_at", "<", createdBefore),
          eb.and([eb("confirmed_at", "is", null), eb("updated_at", "<", emptyUpdatedBefore), noCompletedStep]),
        ]),
      )
      .limit(batch)
      .execute();
    if (!rows.length) break;
    // Files of a draft that never became a booking are nobody's once the draft is gone.
    const withFiles = rows.filter((r) => !r.confirmed_at && r.uploaded_files !== "[]");
    const booked = withFiles.length
      ? new Set(
          (
            await db
              .selectFrom("bookings")
              .select("id")
              .where(
                "id",
                "in",
                withFiles.map((r) => r.booking_id),
              )
              .execute()
          ).map((b) => b.id),
        )
      : new Set<string>();
    const orphaned = withFiles
      .filter((r) => !booked.has(r.booking_id))
      .flatMap((r) => listFromJson(r.uploaded_files, uploadedFileSchema).map((f) => f.path));
    const r = await db
      .deleteFrom("booking_drafts")
      .where(
        "id",
        "in",
        rows.map((d) => d.id),
      )
      .executeTakeFirst();
    result.drafts += Number(r.numDeletedRows);
    if (opts.storage && orphaned.length)
      result.files += removeFiles(
        opts.storage,
        orphaned.filter((p) => typeof p === "string"),
      );
    if (rows.length < batch) break;
    await yieldToEventLoop();
  }

  result.tokens = await deleteOlder("auth_tokens", "created_at", at(TOKEN_RETENTION_MS), false);
  result.webhooks = await deleteOlder("calendly_webhook_events", "received_at", at(WEBHOOK_RETENTION_MS), false);
  return result;
}

/** Removes booking files and then their folders when empty; a failure is logged, not thrown. */
function removeFiles(storage: Storage, paths: string[]): number {
  try {
    const removed = storage.removeMany("booking-files", paths);
    for (const dir of new Set(paths.map((p) => path.posix.dirname(p)).filter((d) => d !== "."))) {
      try {
        fs.rmdirSync(path.dirname(storage.resolveSafe("booking-files", `${dir}/x`)));
      } catch {
        // not empty, or already gone
      }
    }
    return removed;
  } catch (error) {
    log.error({ err: error }, "[cleanup] could not remove a draft's files");
    return 0;
  }
}

/** Removes upload temporary files last written before `before` (ms); returns how many went. */
function removeStaleUploads(dir: string, before: number): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    try {
      if (fs.statSync(full).mtimeMs < before) {
        fs.rmSync(full, { force: true });
        removed++;
      }
    } catch {
      // gone meanwhile
    }
  }
  return removed;
}

/** One log line for a run that removed anything. */
export function describeCleanup(r: CleanupResult): string | null {
  if (!r.sessions && !r.drafts && !r.tokens && !r.files && !r.uploads && !r.webhooks) return null;
  const uploads = r.uploads ? `, ${r.uploads} unfinished uploads` : "";
  const webhooks = r.webhooks ? `, ${r.webhooks} old calendar webhooks` : "";
  return `[cleanup] removed ${r.sessions} expired sessions, ${r.drafts} expired booking drafts (${r.files} files), ${r.tokens} old sign-in tokens${uploads}${webhooks}`;
}
