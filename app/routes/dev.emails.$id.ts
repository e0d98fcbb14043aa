import type { LoaderFunctionArgs } from "@remix-run/node";
import { env } from "../../server/env.server";
import { currentStudio } from "../../server/studio/current.server";
import { previewsServed, sampleEmails } from "../../server/admin/mail-samples.server";

/** GET /dev/emails/<id>: one sample message's HTML on its own (`npm run dev` only: 404 otherwise). */
export async function loader({ params }: LoaderFunctionArgs) {
  const e = env();
  const found = previewsServed(e)
    ? sampleEmails({ ...e, studio: await currentStudio() }).find((m) => m.id === params.id)
    : undefined;
  if (!found) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(found.mail.html, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" },
  });
}
