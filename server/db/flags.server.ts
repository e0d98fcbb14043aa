import type { DB } from "./db.server";

/**
 * The studio's own settings and secrets kept in the database (`studio_flags`, one value per key),
 * so that backups and the replica carry them: the backup schedule and its last outcome, the
 * calendar feed's secret, the document seal, the HTTPS certificate.
 */
export async function readFlag(db: DB, key: string): Promise<string | null> {
  const row = await db.selectFrom("studio_flags").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}

/** Sets (or, with null, removes) one flag. */
export async function setFlag(db: DB, key: string, value: string | null): Promise<void> {
  if (value === null) {
    await db.deleteFrom("studio_flags").where("key", "=", key).execute();
    return;
  }
  await db
    .insertInto("studio_flags")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: new Date().toISOString() }))
    .execute();
}
