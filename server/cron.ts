import { Cron } from "croner";

/**
 * A cron expression checked as croner reads it, in `timezone` ("off" is allowed): null when it is
 * one, else the line that says what is wrong, naming `what` (BACKUP_CRON, or the console's field).
 */
export function cronProblem(expr: string, timezone: string, what = "BACKUP_CRON"): string | null {
  if (expr === "off") return null;
  try {
    new Cron(expr, { timezone, paused: true }).stop();
    return null;
  } catch (error) {
    return `${what} must be a cron expression such as "0 3 * * *" (or "off"), got '${expr}': ${(error as Error).message}`;
  }
}
