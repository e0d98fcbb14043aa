import type { MetaDescriptor } from "@remix-run/node";

type MatchLike = { id: string; data?: unknown };

type RootData = { appUrl?: string; studio?: { name?: string } } | undefined;
const rootOf = (matches: MatchLike[]) => matches.find((m) => m.id === "root")?.data as RootData;

/** The public origin (APP_URL) as given by the root loader. */
export function appUrlFrom(matches: MatchLike[]): string {
  return rootOf(matches)?.appUrl ?? "";
}

/** The studio's name (Settings → Studio) as given by the root loader. */
export function studioNameFrom(matches: MatchLike[]): string {
  return rootOf(matches)?.studio?.name ?? "";
}

/** A page's title followed by the studio's name ("Packages | Studio Rowan"). */
export function pageTitle(matches: MatchLike[], title: string): string {
  const name = studioNameFrom(matches);
  return !name || title.includes(name) ? title : `${title} | ${name}`;
}

/** Title, description, canonical URL and Open Graph tags for one page. */
export function seo(
  matches: MatchLike[],
  page: { title: string; description: string; path: string; image?: string; noindex?: boolean },
): MetaDescriptor[] {
  const base = appUrlFrom(matches);
  const url = `${base}${page.path}`;
  const title = pageTitle(matches, page.title);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: studioNameFrom(matches) },
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

/** A console screen's title ("Bookings · Admin | Studio Rowan"), kept out of search engines. */
export function consoleMeta(title: string) {
  return ({ matches }: { matches: MatchLike[] }): MetaDescriptor[] => [
    { title: pageTitle(matches, title) },
    { name: "robots", content: "noindex" },
  ];
}
