import { useRouteLoaderData } from "@remix-run/react";
import type { PublicIdentity } from "#domain/sample/site";

/** Before the root loader has answered (an error page), nothing of a studio is made up. */
const NONE: PublicIdentity = {
  name: "",
  designer: "",
  role: "",
  contactEmail: "",
  socialUrl: "",
  socialLabel: "",
  footerLine: "",
};

/** The studio's identity as the root loader sends it to every page (Settings → Studio). */
export function useStudio(): PublicIdentity {
  return (useRouteLoaderData("root") as { studio?: PublicIdentity } | undefined)?.studio ?? NONE;
}
