import { formatInteger } from "#domain/numbers";
import type { Health } from "../../../server/health.server";

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

function uptime(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

/** Across the console while /healthz fails: the same reason it answers 503 with (issue 33.4). */
export function HealthBanner({ health }: { health: Health }) {
  if (health.status === "ok") return null;
  return (
    <p role="alert" className="mt-6 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
      <strong>The server is failing its health check</strong>: {health.reason}. Bookings, payments and uploads may fail
      until this is fixed.
    </p>
  );
}

function healthLine(health: Health): string {
  return [
    `schema ${health.schema}`,
    health.status === "ok" ? "healthy" : "failing",
    `up ${uptime(health.uptimeSeconds)}`,
    ...(health.freeMb !== null ? [`${formatInteger(health.freeMb)} MB free`] : []),
    health.lastBackup ? `last backup ${when(health.lastBackup.at)}` : "no backup yet",
  ].join(" · ");
}

/** The console's footer: what /healthz answers, in words. */
export function HealthFooter({ health }: { health: Health }) {
  return (
    <p className="mt-16 pb-8 text-xs text-ink-muted">
      <span data-testid="console-version">{`Studio version ${health.version}`}</span>
      <span data-testid="console-health">{` · ${healthLine(health)}`}</span>
    </p>
  );
}
