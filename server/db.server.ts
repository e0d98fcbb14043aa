import { env } from "./env.server";
import { getDb, type DB } from "./db/db.server";

export type { DB };

/** The app's database, at DATA_DIR/app.db. */
export function db(): DB {
  return getDb(env().DATA_DIR);
}
