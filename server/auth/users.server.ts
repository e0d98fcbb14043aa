import crypto from "node:crypto";
import type { DB } from "../db/db.server";
import { nowIso } from "../db/json";
import { log } from "../log.server";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The users row for an email, created when missing; a provider's full name fills an empty one. */
export async function ensureUser(db: DB, email: string, fullName?: string | null) {
  const normalized = normalizeEmail(email);
  await db
    .insertInto("users")
    .values({ id: crypto.randomUUID(), email: normalized, full_name: fullName ?? null })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
  if (fullName) {
    await db
      .updateTable("users")
      .set({ full_name: fullName, updated_at: nowIso() })
      .where("email", "=", normalized)
      .where("full_name", "is", null)
      .execute();
  }
  return db.selectFrom("users").selectAll().where("email", "=", normalized).executeTakeFirstOrThrow();
}

/** Makes the user (created when needed) an admin; `superAdmin` sets is_super_admin. */
export async function grantAdmin(db: DB, email: string, { superAdmin = false } = {}) {
  const user = await ensureUser(db, email);
  await db
    .insertInto("admin_users")
    .values({ id: user.id, is_super_admin: superAdmin ? 1 : 0 })
    .onConflict((oc) => oc.column("id").doUpdateSet({ is_super_admin: superAdmin ? 1 : 0 }))
    .execute();
  return user;
}

/** Removes the admin row; returns false when the email had none. */
export async function revokeAdmin(db: DB, email: string): Promise<boolean> {
  const user = await db.selectFrom("users").select("id").where("email", "=", normalizeEmail(email)).executeTakeFirst();
  if (!user) return false;
  const res = await db.deleteFrom("admin_users").where("id", "=", user.id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export type Roles = { isAdmin: boolean; isSuperAdmin: boolean };

/** Roles from admin_users: a row means admin; a missing row or a failed lookup means neither. */
export async function rolesOf(db: DB, userId: string): Promise<Roles> {
  try {
    const row = await db.selectFrom("admin_users").select("is_super_admin").where("id", "=", userId).executeTakeFirst();
    if (!row) return { isAdmin: false, isSuperAdmin: false };
    return { isAdmin: true, isSuperAdmin: row.is_super_admin === 1 };
  } catch (error) {
    log.error({ err: error }, "[auth] admin lookup failed");
    return { isAdmin: false, isSuperAdmin: false };
  }
}

/** Applies ADMIN_EMAILS / SUPER_ADMIN_EMAILS to a user who just signed in. */
export async function applyConfiguredAdmin(
  db: DB,
  email: string,
  lists: { ADMIN_EMAILS: string[]; SUPER_ADMIN_EMAILS: string[] },
): Promise<void> {
  const e = normalizeEmail(email);
  if (lists.SUPER_ADMIN_EMAILS.includes(e)) await grantAdmin(db, e, { superAdmin: true });
  else if (lists.ADMIN_EMAILS.includes(e)) await grantAdmin(db, e, { superAdmin: false });
}
