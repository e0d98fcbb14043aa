import type { MetaDescriptor } from "@remix-run/node";

type MatchLike = { id: string; data?: unknown };

export const SITE_NAME = "Studio Rowan";

/** The public origin (APP_URL) as given by the root loader. */
export function appUrlFrom(matches: MatchLike[]): string {
  const root = matches.find((m) => m.id === "root")?.data as { appUrl?: string } | undefined;
  return root?.appUrl ?? "";
}

/** Title, description, canonical URL and Open Graph tags for one page. */
export function seo(
  matches: MatchLike[],
  page: { title: string; description: string; path: string; image?: string; noindex?: boolean },
): MetaDescriptor[] {
  const base = appUrlFrom(matches);
  const url = `${base}${page.path}`;
  const title = page.title.includes(SITE_NAME) ? page.title : `${page.title} | ${SITE_NAME}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (page.image)
    tags.push({ property: "og:image", content: page.image.startsWith("http") ? page.image : `${base}${page.image}` });
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
