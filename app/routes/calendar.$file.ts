import type { LoaderFunctionArgs } from "@remix-run/node";
import { ownerFeed } from "../../server/booking/owner-feed.server";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";
import { currentStudio } from "../../server/studio/current.server";

/**
 * GET /calendar/<secret>.ics: the studio's consultation calls as a feed for the owner's calendar
 * app (issue 43.8). Any other address is 404, the same answer whether or not a feed exists.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  const headers = { "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" };
  const studio = await currentStudio();
  const feed = file.endsWith(".ics")
    ? await ownerFeed(db(), file.slice(0, -4), { ...env(), studioName: studio.identity.name })
    : null;
  if (feed === null)
    return new Response("Not found", {
      status: 404,
      headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(feed, { headers: { ...headers, "Content-Type": "text/calendar; charset=utf-8" } });
}
