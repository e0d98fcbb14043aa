import { redirect } from "@remix-run/node";
import { auth, sessionUserById, SIGNIN_REQUIRED_PATH, type SessionUser } from "../auth/auth.server";
import { refusalFor, type Refusal } from "../auth/guards.server";
import { safeRedirectPath } from "../auth/redirect";
import type { StudioSession } from "../auth/session.server";
import { siteCookie } from "./site-cookie.server";

/**
 * The session's edge (issue 41.3): the studio_session cookie of a request read and written, signing
 * in and out as redirects, the remembered return path's cookie, and the guards of loaders and
 * resource routes, which answer a refusal with a redirect or a status. What they decide is the
 * auth room's (server/auth: the session rows, the user and roles, `refusalFor`).
 */

export async function getSession(request: Request): Promise<StudioSession> {
  return auth().sessionStorage.getSession(request.headers.get("Cookie"));
}

export async function commitSession(session: StudioSession): Promise<string> {
  return auth().sessionStorage.commitSession(session);
}

/** The signed-in user with roles, or null. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (typeof userId !== "string") return null;
  return sessionUserById(auth().db, userId);
}

/**
 * Starts a fresh session for the user (a new id on every sign-in; the previous session row is
 * deleted) and redirects to `redirectTo`.
 */
export async function signInAndRedirect(request: Request, userId: string, redirectTo: string): Promise<Response> {
  const { sessionStorage } = auth();
  const old = await getSession(request);
  const remembered = await rememberedRedirect(request);
  if (old.id) await sessionStorage.destroySession(old);
  const fresh = await sessionStorage.getSession();
  fresh.set("userId", userId);
  const target = safeRedirectPath(redirectTo || remembered || "", "/dashboard");
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionStorage.commitSession(fresh));
  headers.append("Set-Cookie", await authRedirectCookie().serialize("", { maxAge: 0 }));
  return redirect(target, { headers });
}

/** Deletes the session row so the old cookie no longer works. */
export async function signOut(request: Request, to = "/templates"): Promise<Response> {
  const { sessionStorage } = auth();
  const session = await getSession(request);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage.destroySession(session) } });
}

/**
 * Where to return after signing in (`auth_redirect`), kept in its own signed cookie for an hour:
 * remembering it never writes to the database, so a GET stays free of side effects.
 */
const authRedirectCookie = () => siteCookie("auth_redirect", 60 * 60);

/** Remembers where to return after signing in; answers the Set-Cookie header value. */
export async function rememberRedirect(_request: Request, path: string): Promise<string> {
  return authRedirectCookie().serialize(safeRedirectPath(path, "/dashboard"));
}

/** The remembered return path (already checked to be same-site), or null. */
export async function rememberedRedirect(request: Request): Promise<string | null> {
  const value = await authRedirectCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" ? safeRedirectPath(value, "/dashboard") : null;
}

/** Loader/action guard: the signed-in user, or a redirect to the sign-in dialog with this path remembered. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user) return user;
  const url = new URL(request.url);
  const cookie = await rememberRedirect(request, url.pathname + url.search);
  throw redirect(SIGNIN_REQUIRED_PATH, { headers: { "Set-Cookie": cookie } });
}

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
