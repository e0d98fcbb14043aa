import type SQLite from "better-sqlite3";
import type { Env } from "../env.server";
import { catalogueVersionReader } from "../db/catalogue-version.server";
import { webUrlProblem } from "#domain/web-url";

/**
 * The environment as the HTTP layer's security headers read it, with CALENDLY_URL replaced by the
 * calendar link saved in Settings → Studio (issue 29), so the Content-Security-Policy lets the
 * owner's own scheduling page into the booking's frame. Read synchronously on the process's SQLite
 * connection, again only when the catalogue's version moved (every save announces one).
 */
export function calendarEnvReader(sqlite: SQLite.Database, env: Env): () => Env {
  const version = catalogueVersionReader(sqlite);
  const studio = sqlite.prepare("select data from studio_settings where section = 'studio'").pluck();
  let seen = -1;
  let current = env;
  return () => {
    const v = version();
    if (v === seen) return current;
    seen = v;
    let url = "";
    try {
      const data = JSON.parse((studio.get() as string | undefined) ?? "{}") as { calendarUrl?: unknown };
      url = typeof data.calendarUrl === "string" ? data.calendarUrl : "";
    } catch {
      url = "";
    }
    // One saved before links were checked as URLs, and failing the rule now, is not used.
    current = url && url !== env.CALENDLY_URL && !webUrlProblem(url) ? { ...env, CALENDLY_URL: url } : env;
    return current;
  };
}
