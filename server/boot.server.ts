import { DEFAULT_CALENDLY_URL, env, envWarnings, type Env } from "./env.server";
import { closeDb, getDb, getSqlite } from "./db/db.server";
import { migrateToLatest, type DB } from "./db/db.server";
import { CLEANUP_INTERVAL_MS, cleanupExpired, describeCleanup } from "./db/cleanup.server";
import { seedDemoCatalogue } from "./db/seed.server";
import { holdDataFolder, releaseDataFolder } from "./db/lock.server";
import { defaultBackupDir } from "./db/backup.server";
import { upgradeSchema } from "./db/upgrade.server";
import { retryPendingMail, sendMail } from "./email/mailer.server";
import { MAIL_OFF_WARNING, mailIsOff, mailProvider } from "#domain/mail-providers";
import { savedSchedule, startBackupSchedule, stopBackupSchedule } from "./db/backup-schedule.server";
import { offsiteFrom } from "./db/offsite.server";
import { calendlyApi, fillPendingMeetings } from "./booking/meeting.server";
import { createStorage } from "./storage/storage.server";
import { announceSetupLink } from "./admin/setup.server";
import { calendarEnvReader } from "./studio/calendar.server";
import { log } from "./log.server";
import { SYNC_INTERVAL_MS, syncAllSources } from "./calendar/sources.server";
import { getStudio } from "./studio/studio.server";
import { startReplica, stopReplica } from "./replica/replica.server";
import { replicaProblem } from "./replica/replicator.server";
import { addHealthCheck } from "./health.server";

let retryTimer: NodeJS.Timeout | undefined;
let calendarTimer: NodeJS.Timeout | undefined;
let calendarRun: Promise<unknown> | undefined;
let backups: { stop: () => void; next: () => Date | null } | undefined;
let cleanupTimer: NodeJS.Timeout | undefined;
let cleanupRun: Promise<void> | undefined;
let cleanupStop: AbortController | undefined;

/** Stops background work (called on SIGTERM after in-flight requests finish). */
export async function shutdown(): Promise<void> {
  if (retryTimer) clearInterval(retryTimer);
  if (calendarTimer) clearInterval(calendarTimer);
  await calendarRun;
  stopBackupSchedule();
  if (cleanupTimer) clearInterval(cleanupTimer);
  // A cleanup in progress stops after its current batch, before the database closes.
  cleanupStop?.abort();
  await cleanupRun;
  // The replica's last second, and the files still queued, before the database closes.
  await stopReplica();
  await closeDb();
  releaseDataFolder();
}

/**
 * The built-in calendar's sources synced on SYNC_INTERVAL_MS (issue 43.3), one run at a time, in
 * the studio's zone and booking window as Settings → Calendar says at each run. A source's own
 * failure is kept on it (the console shows it); a run that fails outright is logged.
 */
function scheduleCalendarSync(db: DB): void {
  const run = () => {
    if (calendarRun) return;
    calendarRun = (async () => {
      const { calendar, identity } = await getStudio(db);
      if (calendar.provider !== "builtin") return;
      const results = await syncAllSources(db, {
        now: Date.now(),
        timeZone: calendar.availability.timeZone,
        windowDays: calendar.availability.windowDays,
        ownerEmails: [identity.contactEmail, env().STUDIO_EMAIL],
      });
      for (const [id, r] of results) if (!r.ok) log.warn(`[calendar] source ${id} failed to sync: ${r.error}`);
    })()
      .catch((error) => log.error({ err: error }, "[calendar] syncing the calendars failed"))
      .finally(() => (calendarRun = undefined));
  };
  run();
  calendarTimer = setInterval(run, SYNC_INTERVAL_MS);
  calendarTimer.unref();
}

/** One cleanup run at a time; a run that fails is logged and retried on the next tick. */
function scheduleCleanup(db: DB, dataDir: string): void {
  cleanupStop = new AbortController();
  const signal = cleanupStop.signal;
  const storage = createStorage(dataDir);
  const run = () => {
    if (cleanupRun || signal.aborted) return;
    cleanupRun = cleanupExpired(db, new Date(), { storage, signal })
      .then((result) => {
        const line = describeCleanup(result);
        if (line) log.info(line);
      })
      .catch((error) => log.error({ err: error }, "[cleanup] failed"))
      .finally(() => (cleanupRun = undefined));
  };
  run();
  cleanupTimer = setInterval(run, CLEANUP_INTERVAL_MS);
  cleanupTimer.unref();
}

/**
 * Runs once when the production server starts: validates the environment (throwing with
 * the names of missing variables), applies pending migrations, seeds an empty catalogue,
 * prints the first run's setup link while there is no admin, then starts the background work: the mail retry loop and the hourly cleanup of expired rows.
 */
export async function boot(): Promise<void> {
  const e = env();
  // Production without a mail provider runs, but says once that nothing will be delivered (issue 33.2).
  if (mailIsOff(e)) log.warn(MAIL_OFF_WARNING);
  // One server per data folder, and no restore beneath it: held until the process ends (issue 32.5).
  holdDataFolder(e.DATA_DIR);
  const db = getDb(e.DATA_DIR);
  // Newer data refused; data about to be migrated backed up first (issue 32.4).
  const { applied } = await upgradeSchema(db, e.DATA_DIR, defaultBackupDir(e.DATA_DIR, e.BACKUP_DIR), migrateToLatest);
  for (const name of applied) log.info(`[db] migration ${name}: Success`);
  const seeded = await seedDemoCatalogue(db, e.DATA_DIR, {});
  if (seeded.inserted) log.info(`[db] seeded ${seeded.inserted} sample templates`);
  // No admin yet: a one-time setup link (24 hours), printed on every such boot (decision 018).
  await announceSetupLink(db, e.APP_URL);
  // Continuous replication (REPLICA_URL): from the migrated database on; /healthz fails when the
  // replica has been more than a minute behind for 5 minutes.
  await startReplica(e);
  addHealthCheck(replicaProblem);
  // Mail that failed to send stays in the outbox and is retried with backoff (30 s, 1 min, 2 min,
  // ... up to an hour, as next_attempt_at says); reminders wait there for their time. Calls whose
  // time Calendly could not tell at once are read again with the same kind of backoff
  // (server/booking/meeting.server.ts). The loop looks for due work every 5 s (indexed queries).
  const calendly = calendlyApi(e);
  let retrying = false;
  retryTimer = setInterval(() => {
    if (retrying) return;
    retrying = true;
    const now = new Date();
    fillPendingMeetings(db, calendly, now)
      .catch((error) => log.error({ err: error }, "[calendly] reading pending calls failed"))
      .then(() => retryPendingMail(db, e, now))
      .catch((error) => log.error({ err: error }, "[mail] retry failed"))
      .finally(() => (retrying = false));
  }, 5_000);
  retryTimer.unref();
  // The owner's calendars (their busy times) read again every 5 minutes, and once now (not awaited).
  scheduleCalendarSync(db);
  // Expired sessions, drafts and sign-in tokens: removed once now (in batches, not awaited, so
  // the server starts listening at once) and then every hour (server/db/cleanup.server.ts).
  scheduleCleanup(db, e.DATA_DIR);
  // Backups on their schedule (issue 32.2); a failure is mailed to the studio once, until one succeeds.
  // What the console saved wins over BACKUP_CRON and BACKUP_KEEP.
  const saved = await savedSchedule(db);
  const plan = {
    cron: saved?.cron ?? e.BACKUP_CRON,
    keep: saved?.keep ?? e.BACKUP_KEEP,
    dir: defaultBackupDir(e.DATA_DIR, e.BACKUP_DIR),
    timezone: e.STUDIO_TIMEZONE,
    offsite: offsiteFrom(e),
  };
  backups = startBackupSchedule(db, e.DATA_DIR, plan, async (message) => {
    await sendMail(db, e, {
      to: e.STUDIO_EMAIL,
      subject: "The studio's scheduled backup failed",
      text: `The backup at ${new Date().toISOString()} failed: ${message}\n\nThe next one runs as scheduled (${plan.cron}, ${plan.timezone}). Until one succeeds, the data exists only on the server.\n`,
      html: `<p>The scheduled backup failed: ${message.replace(/[<>&]/g, "")}</p><p>The next one runs as scheduled (${plan.cron}, ${plan.timezone}). Until one succeeds, the data exists only on the server.</p>`,
    });
  });
  const next = backups.next();
  log.info(
    plan.cron === "off"
      ? "[backup] scheduled backups are off (BACKUP_CRON=off)"
      : `[backup] scheduled (${plan.cron}, ${plan.timezone}), keeping ${plan.keep} in ${plan.dir}${plan.offsite ? ` and in ${plan.offsite.bucket}` : ""}; next ${next?.toISOString() ?? "never"}`,
  );
  for (const warning of envWarnings(e)) log.warn(`[config] warning: ${warning}`);
  log.info(`[config] ${settingsSummary(calendarEnvReader(getSqlite(e.DATA_DIR), e)(), plan)}`);
}

/**
 * The one line at start that says what is on (issue 33.1): mail, payments, Google sign-in, the
 * calendar and backups, as this process will run them.
 */
export function settingsSummary(
  e: Env,
  plan: { cron: string; keep: number; offsite: { bucket: string } | null },
): string {
  const mail = { sendgrid: "on (SendGrid)", smtp: "on (SMTP)", none: "off" }[mailProvider(e)];
  const payments = e.STRIPE_SECRET_KEY
    ? `on (Stripe${e.STRIPE_SECRET_KEY.startsWith("sk_test_") ? ", test key" : ""})`
    : "off";
  const google = e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? "on" : "off";
  const calendar = e.CALENDLY_URL === DEFAULT_CALENDLY_URL ? "the sample link" : `on (${new URL(e.CALENDLY_URL).host})`;
  const backups =
    plan.cron === "off"
      ? "off"
      : `on (${plan.cron}, keep ${plan.keep}${plan.offsite ? `, off-site to ${plan.offsite.bucket}` : ", this machine only"})`;
  const replica = e.REPLICA ? `on (${e.REPLICA.display})` : "off";
  return `mail: ${mail} · payments: ${payments} · Google sign-in: ${google} · calendar: ${calendar} · backups: ${backups} · replica: ${replica}`;
}
