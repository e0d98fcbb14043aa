import { redirect } from "@remix-run/node";
import { getSessionUser, requireUser, type SessionUser } from "./auth.server";

/**
 * The one guard (issue 30.4): who may do what is decided here, once, for every admin page, export,
 * upload and tRPC procedure; routes only choose how a refusal is answered.
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

export { requireUser };

/**
 * The console's pages: the signed-in admin, or a redirect to /templates for anyone else (SPEC.md
 * §6: non-admins and signed-out visitors on /admin go to /templates).
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (refusalFor(user, "admin")) throw redirect("/templates");
  return user!;
}

/** As requireAdmin, for what only a super admin may do. */
export async function requireSuperAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (refusalFor(user, "super")) throw redirect("/templates");
  return user!;
}

/**
 * The console's resource routes (exports, uploads): the signed-in admin, or a thrown answer of
 * 401 (signed out) or 403 (not an admin) with the route's own words, as `answer` builds it.
 */
export async function requireAdminOr(
  request: Request,
  answer: (refusal: Refusal, status: 401 | 403) => Response,
): Promise<SessionUser> {
  const user = await getSessionUser(request);
  const refusal = refusalFor(user, "admin");
  if (refusal) throw answer(refusal, refusal === "signed-out" ? 401 : 403);
  return user!;
}
