import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "../../server/http/session.server";

/** Signed out: sign in first (path remembered). Admins go to /admin, everyone else to /templates. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return redirect(user.isAdmin ? "/admin" : "/templates");
}
