import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

/** Only admins may see the console; everyone else goes to the shop. */
export async function loader(_args: LoaderFunctionArgs) {
  return redirect("/templates");
}
