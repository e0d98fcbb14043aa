import crypto from "node:crypto";
import type { Transaction } from "kysely";
import { z } from "zod";
import { grantAdmin } from "../auth/users.server";
import type { DB } from "../db/db.server";
import { fromJson, nowIso, toJson } from "../db/json";
import type { Database } from "../db/schema";
import { announceCatalogueChange } from "../db/catalogue-version.server";
import { log } from "../log.server";

/**
 * The first run (issue 29, decision 018): while no admin exists, every boot prints a one-time link
 * to `/setup?token=…`. The token is 256 random bits, stored only as its sha256, valid 24 hours,
 * used once, and dead as soon as any admin exists (checked when it is used, not only when printed).
 * Using it names the studio and makes the person who used it the super admin, in one transaction.
 */
export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

type Db = DB | Transaction<Database>;

export function hashSetupToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export async function hasAdmin(db: Db): Promise<boolean> {
  return Boolean(await db.selectFrom("admin_users").select("id").limit(1).executeTakeFirst());
}

/**
 * A fresh setup token while the data folder has no admin (null once one exists). Older unused
 * tokens are deleted: only the link printed last works.
 */
export async function issueSetupToken(db: DB, now = new Date()): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    if (await hasAdmin(trx)) return null;
    await trx.deleteFrom("setup_tokens").where("used_at", "is", null).execute();
    const token = crypto.randomBytes(32).toString("base64url");
    await trx
      .insertInto("setup_tokens")
      .values({
        token_hash: hashSetupToken(token),
        created_at: nowIso(now),
        expires_at: nowIso(new Date(now.getTime() + SETUP_TOKEN_TTL_MS)),
        used_at: null,
      })
      .execute();
    return token;
  });
}

export function setupLink(appUrl: string, token: string): string {
  const url = new URL("/setup", appUrl);
  url.searchParams.set("token", token);
  return url.toString();
}

/** At boot: with no admin yet, issues a token and prints its link (one line); returns the link. */
export async function announceSetupLink(
  db: DB,
  appUrl: string,
  print: (line: string) => void = (line) => log.info(line),
): Promise<string | null> {
  const token = await issueSetupToken(db);
  if (!token) return null;
  const link = setupLink(appUrl, token);
  print(`[setup] No admin yet. Open this link within 24 hours to set up your studio: ${link}`);
  return link;
}

/**
 * What a setup link is worth now: `live` (shows the form), `dead` (known but used, expired, or an
 * admin exists: 410) or `unknown` (never issued: 404). Reads only.
 */
export async function setupTokenState(db: DB, token: string, now = new Date()): Promise<"live" | "dead" | "unknown"> {
  if (!token) return "unknown";
  const row = await db
    .selectFrom("setup_tokens")
    .select(["used_at", "expires_at"])
    .where("token_hash", "=", hashSetupToken(token))
    .executeTakeFirst();
  if (!row) return (await hasAdmin(db)) ? "dead" : "unknown";
  if (row.used_at || row.expires_at <= nowIso(now) || (await hasAdmin(db))) return "dead";
  return "live";
}

/**
 * Uses a setup token: in one transaction, consumes it (only while unused, unexpired and with no
 * admin in the table), makes `email` the super admin (creating the user) and saves the studio's
 * name. Null when the token was not consumable; nothing is written then. A failure on the way
 * rolls everything back: no admin, and the token still unused.
 */
export async function completeSetup(
  db: DB,
  input: { token: string; studioName: string; email: string },
  now = new Date(),
): Promise<{ userId: string; email: string } | null> {
  return db.transaction().execute(async (trx) => {
    const consumed = await trx
      .updateTable("setup_tokens")
      .set({ used_at: nowIso(now) })
      .where("token_hash", "=", hashSetupToken(input.token))
      .where("used_at", "is", null)
      .where("expires_at", ">", nowIso(now))
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom("admin_users").select("id"))))
      .executeTakeFirst();
    if (Number(consumed.numUpdatedRows) !== 1) return null;
    const user = await grantAdmin(trx, input.email, { superAdmin: true });
    await saveStudioName(trx, input.studioName, user.email, now);
    return { userId: user.id, email: user.email };
  });
}

const sectionData = z.record(z.string(), z.unknown());

/**
 * Sets the studio's name in its Settings section (`studio_settings`, section `studio`), keeping
 * whatever else the section holds. A new row stays marked as the sample's (its other fields still
 * are); an existing row keeps its mark. Cached pages are told the catalogue changed.
 */
export async function saveStudioName(
  trx: Transaction<Database> | DB,
  name: string,
  byEmail: string,
  now = new Date(),
): Promise<void> {
  const row = await trx.selectFrom("studio_settings").select("data").where("section", "=", "studio").executeTakeFirst();
  const data = { ...fromJson(row?.data, sectionData, {}), name };
  const at = nowIso(now);
  await trx
    .insertInto("studio_settings")
    .values({ section: "studio", data: toJson(data), sample: 1, updated_by: byEmail, updated_at: at })
    .onConflict((oc) => oc.column("section").doUpdateSet({ data: toJson(data), updated_by: byEmail, updated_at: at }))
    .execute();
  await announceCatalogueChange(trx);
}
