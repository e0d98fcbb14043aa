export const CATEGORIES = ["portfolio", "saas", "ecommerce", "agency", "blog", "landing"] as const;
export type Category = (typeof CATEGORIES)[number];

/** Label, emoji and gradient of each template category; portfolio is the fallback. */
export const CATEGORY_META: Record<Category, { label: string; emoji: string; gradient: [string, string] }> = {
  portfolio: { label: "Portfolio", emoji: "🎨", gradient: ["#f6d5c4", "#b4421a"] },
  saas: { label: "SaaS", emoji: "🚀", gradient: ["#d7dcff", "#4338ca"] },
  ecommerce: { label: "E-commerce", emoji: "🛍️", gradient: ["#ffe3b3", "#c2410c"] },
  agency: { label: "Agency", emoji: "💼", gradient: ["#d9f2e6", "#047857"] },
  blog: { label: "Blog", emoji: "✍️", gradient: ["#f3e8ff", "#7e22ce"] },
  landing: { label: "Landing page", emoji: "⚡", gradient: ["#cffafe", "#0e7490"] },
};

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}

export function categoryMeta(value: string) {
  return CATEGORY_META[isCategory(value) ? value : "portfolio"];
}
