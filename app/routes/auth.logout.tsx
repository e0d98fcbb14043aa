import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { signOut } from "../../server/http/session.server";

export async function loader() {
  return redirect("/templates");
}

/** Sign-out deletes the session row, so the old cookie stops working. */
export async function action({ request }: ActionFunctionArgs) {
  return signOut(request, "/templates");
}
