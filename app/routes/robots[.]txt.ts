import { env } from "../../server/env.server";

export async function loader() {
  const body = `User-agent: *
Allow: /
Disallow: /admin
Disallow: /dashboard
Disallow: /auth/
Disallow: /api/
Disallow: /files/booking-files/

Sitemap: ${env().APP_URL}/sitemap.xml
`;
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
