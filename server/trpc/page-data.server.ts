import { auth, type SessionUser } from "../auth/auth.server";
import { getSessionUser } from "../http/session.server";
import { db } from "../db.server";
import { createCaller } from "./root";
import { createContextInner } from "./trpc";

/**
 * A tRPC caller for what every visitor sees alike (the home page's featured templates): the
 * loaders read the catalogue through the same procedures as the browser and the console.
 */
export function publicCaller() {
  return createCaller(createContextInner({ db: db(), user: null }));
}

/**
 * The signed-in user (public fields) and a tRPC caller acting as them, for shop loaders; `known` is
 * the user a guard already looked up (the session is read once).
 */
export async function shopContext(request: Request, known?: SessionUser) {
  const user = known ?? (await getSessionUser(request));
  const caller = createCaller(createContextInner({ db: db(), user, request }));
  return {
    caller,
    user: user ? { id: user.id, email: user.email, isAdmin: user.isAdmin, isSuperAdmin: user.isSuperAdmin } : null,
    googleConfigured: auth().googleConfigured,
    emailSignIn: auth().emailSignIn,
  };
}
