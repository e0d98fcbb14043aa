import type { SessionUser } from "./auth.server";

/**
 * The one guard (issue 30.4): who may do what is decided here, once, for every admin page, export,
 * upload and tRPC procedure; routes only choose how a refusal is answered (the web edge's
 * requireAdmin and requireAdminOr, server/http/session.server.ts; tRPC's adminProcedure).
 *
 *   user   any signed-in person
 *   admin  a row in admin_users
 *   super  an admin row with is_super_admin
 */
export type Role = "user" | "admin" | "super";
export type Refusal = "signed-out" | "forbidden";

/** Why `user` may not act as `role`, or null when they may. */
export function refusalFor(user: Pick<SessionUser, "isAdmin" | "isSuperAdmin"> | null, role: Role): Refusal | null {
  if (!user) return "signed-out";
  if (role === "admin" && !user.isAdmin) return "forbidden";
  if (role === "super" && !user.isSuperAdmin) return "forbidden";
  return null;
}
