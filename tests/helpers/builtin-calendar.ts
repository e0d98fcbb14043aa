import { beforeAll } from "vitest";
import { openSlots } from "../../server/calendar/calls.server";
import { db } from "../../server/db.server";
import { migrateToLatest } from "../../server/db/db.server";
import { getStudio } from "../../server/studio/studio.server";

/** What the built-in calendar's integration tests share (issue 43): its messages, a studio in London. */

export const TAKEN = "That time was just taken, please pick another";
export const UNAVAILABLE = "That time is not available, please pick one of the times shown";

/** A new data folder's studio in Europe/London that books with its own calendar (no CALENDLY_URL). */
export function aBuiltinStudio() {
  beforeAll(async () => {
    process.env.STUDIO_TIMEZONE = "Europe/London";
    delete process.env.CALENDLY_URL;
    await migrateToLatest(db());
  });
}

export const unique = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
export const iso = (ms: number) => new Date(ms).toISOString();

/** The free times offered now. */
export async function slots() {
  const { calendar } = await getStudio(db());
  return openSlots(db(), calendar.availability, Date.now());
}
