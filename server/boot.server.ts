import { env } from "./env.server";
import { closeDb, getDb } from "./db/db.server";
import { migrateToLatest } from "./db/db.server";
import { seedDemoCatalogue } from "./db/seed.server";
import { retryPendingMail } from "./email/mailer.server";

let retryTimer: NodeJS.Timeout | undefined;

/** Stops background work (called on SIGTERM after in-flight requests finish). */
export async function shutdown(): Promise<void> {
  if (retryTimer) clearInterval(retryTimer);
  await closeDb();
}

/**
 * Runs once when the production server starts: validates the environment (throwing with
 * the names of missing variables), applies pending migrations, seeds an empty catalogue.
 */
export async function boot(): Promise<void> {
  const e = env();
  const db = getDb(e.DATA_DIR);
  const result = await migrateToLatest(db);
  for (const r of result.results ?? []) console.log(`[db] migration ${r.migrationName}: ${r.status}`);
  const seeded = await seedDemoCatalogue(db, e.DATA_DIR, {});
  if (seeded.inserted) console.log(`[db] seeded ${seeded.inserted} demo templates`);
  // Mail that failed to send stays in the outbox and is retried with backoff (30 s, 1 min, 2 min,
  // ... up to an hour, as next_attempt_at says); the loop looks for due messages every 5 s
  // (one indexed query).
  let retrying = false;
  retryTimer = setInterval(() => {
    if (retrying) return;
    retrying = true;
    retryPendingMail(db)
      .catch((error) => console.error("[mail] retry failed", error))
      .finally(() => (retrying = false));
  }, 5_000);
  retryTimer.unref();
}
