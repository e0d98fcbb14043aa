export type NavItem = { to: string; label: string };

/** Main navigation in the spec's order; "Get started!" is the highlighted last item. */
export const mainNav: NavItem[] = [
  { to: "/", label: "Home" },
  { to: "/work", label: "Work" },
  { to: "/packages", label: "Packages" },
  { to: "/process", label: "Process" },
];
export const ctaNav: NavItem = { to: "/booking", label: "Get started!" };
export const templatesNav: NavItem = { to: "/templates", label: "Templates" };

/** Home is active only on exactly "/", every other item when the path starts with its prefix. */
export function isActive(to: string, pathname: string): boolean {
  if (to === "/") return pathname === "/";
  return pathname.startsWith(to);
}
