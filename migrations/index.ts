import type { Migration } from "kysely";
import * as m0001 from "./2026_11_22_0900_create_core_tables";

/**
 * Every migration, in order. Migration files are never edited after they land;
 * a new migration is a new file plus one line here.
 */
export const migrations: Record<string, Migration> = {
  "2026_11_22_0900_create_core_tables": m0001,
};
