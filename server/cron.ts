import { Cron, type CronOptions } from "croner";

/**
 * Croner's options for a schedule in `timezone`: UTC as a fixed offset of zero, the same times
 * without Intl (croner reads a named zone's offsets through Intl, whose first use loads ICU's data:
 * some 25 ms of every start on the default UTC, issue 42.4); any other zone by its name.
 */
export function cronZone(timezone: string): Pick<CronOptions, "timezone" | "utcOffset"> {
  return timezone === "UTC" ? { utcOffset: 0 } : { timezone };
}

/**
 * A backup schedule as the operator gives it (BACKUP_CRON, the console's "Schedule"), checked: "off",
 * or a cron expression of exactly five fields (minute hour day month weekday; croner would also
 * take a seconds field, and a backup every second fills a disk) that croner reads in `timezone`
 * and that runs at most once an hour (one minute in its first field). Null when it is one, else the
 * line that says what is wrong, naming `what` (BACKUP_CRON, or the console's field).
 */
export function cronProblem(expr: string, timezone: string, what = "BACKUP_CRON"): string | null {
  if (expr === "off") return null;
  const malformed = (why: string) =>
    `${what} must be a cron expression such as "0 3 * * *" (or "off"), got '${expr}': ${why}`;
  const fields = expr.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5)
    return malformed(
      `it has ${fields.length} field${fields.length === 1 ? "" : "s"}, not the 5 of minute hour day month weekday`,
    );
  try {
    new Cron(expr, { ...cronZone(timezone), paused: true }).stop();
  } catch (error) {
    return malformed((error as Error).message);
  }
  // One minute of the hour: a number, nothing that names several (*, ranges, lists, steps).
  if (!/^\d{1,2}$/.test(fields[0]))
    return `${what} runs more often than hourly: '${expr}' has more than one minute in its first field; backups run at most once an hour, e.g. "0 * * * *"`;
  return null;
}
