import type { Migration } from "kysely";
import * as m0001 from "./2026_11_22_0900_create_core_tables";
import * as m0002 from "./2026_11_23_1200_create_stripe_revocations";
import * as m0003 from "./2026_11_23_1210_add_meetings_to_bookings";
import * as m0004 from "./2026_11_23_1300_add_revoked_to_purchases";
import * as m0005 from "./2026_11_23_1400_create_catalogue_version";
import * as m0006 from "./2026_11_25_0900_create_studio_settings";
import * as m0007 from "./2026_11_25_1200_create_payment_plans";
import * as m0008 from "./2026_11_26_0900_create_calendar_sources";
import * as m0009 from "./2026_11_26_1000_add_builtin_calls";
import * as m0010 from "./2026_11_26_1200_create_proposals_and_invoices";

/**
 * Every migration, in order. Migration files are never edited after they land;
 * a new migration is a new file plus one line here.
 */
export const migrations: Record<string, Migration> = {
  "2026_11_22_0900_create_core_tables": m0001,
  "2026_11_23_1200_create_stripe_revocations": m0002,
  "2026_11_23_1210_add_meetings_to_bookings": m0003,
  "2026_11_23_1300_add_revoked_to_purchases": m0004,
  "2026_11_23_1400_create_catalogue_version": m0005,
  "2026_11_25_0900_create_studio_settings": m0006,
  "2026_11_25_1200_create_payment_plans": m0007,
  "2026_11_26_0900_create_calendar_sources": m0008,
  "2026_11_26_1000_add_builtin_calls": m0009,
  "2026_11_26_1200_create_proposals_and_invoices": m0010,
};
