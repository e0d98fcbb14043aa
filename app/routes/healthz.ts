import { checkHealth } from "../../server/health.server";

/**
 * Readiness as the service needs it (issue 33.4): 200 with the version, schema level, uptime,
 * free disk and last backup only when the database takes a write, the disk has MIN_FREE_MB free
 * and the data folder can be written; otherwise 503 with the reason.
 */
export function loader() {
  const health = checkHealth();
  return new Response(JSON.stringify(health), {
    status: health.status === "ok" ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
