import { db } from "../../server/db.server";
import { currentStudio } from "../../server/studio/current.server";
import { env } from "../../server/env.server";

const STATIC_PATHS = ["/", "/work", "/packages", "/process", "/booking", "/templates", "/terms", "/privacy"];

/** Every public page, each case study and every template page, with absolute URLs from APP_URL. */
export async function loader() {
  const base = env().APP_URL;
  const { caseStudies } = await currentStudio();
  const templates = await db()
    .selectFrom("templates")
    .select(["slug", "updated_at"])
    .orderBy("created_at", "desc")
    .execute();
  const urls = [
    ...STATIC_PATHS.map((p) => ({ loc: `${base}${p}` })),
    ...caseStudies.map((c) => ({ loc: `${base}/work/${c.id}` })),
    ...templates.map((t) => ({
      loc: `${base}/templates/${encodeURIComponent(t.slug)}`,
      lastmod: t.updated_at.slice(0, 10),
    })),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((u) => `  <url><loc>${u.loc}</loc>${"lastmod" in u && u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`).join("\n")}
</urlset>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
