import { useLocation } from "@remix-run/react";
import { Menu, Sparkles, X } from "lucide-react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { ctaNav, mainNav, templatesNav } from "./nav";
import { NavItemLink } from "./NavItemLink";

const DURATION = 300;

/**
 * The small-screen menu. A <details> element, so it opens and closes without JavaScript;
 * with JavaScript the toggle animates (0.3 s) and the menu closes on every route change.
 */
export function MobileMenu() {
  const { pathname, search } = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);
  const [state, setState] = useState<"closed" | "open" | "closing">("closed");

  useEffect(() => {
    const el = ref.current;
    if (el) el.open = false;
    setState("closed");
  }, [pathname, search]);

  useEffect(() => {
    if (state !== "closing") return;
    const t = window.setTimeout(() => {
      if (ref.current) ref.current.open = false;
      setState("closed");
    }, DURATION);
    return () => window.clearTimeout(t);
  }, [state]);

  useEffect(() => {
    if (state !== "open") return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setState("closing");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [state]);

  function onToggleClick(e: MouseEvent) {
    e.preventDefault();
    const el = ref.current;
    if (!el) return;
    if (el.open && state !== "closing") {
      setState("closing");
    } else {
      el.open = true;
      setState("open");
    }
  }

  const expanded = state === "open";
  const linkClass = (active: boolean) =>
    `block rounded-xl px-4 py-3 text-lg font-medium ${active ? "bg-ink/[0.06] text-ink" : "text-ink-soft hover:bg-ink/[0.04]"}`;

  return (
    <details ref={ref} className="group/menu md:hidden" data-state={state}>
      <summary
        onClick={onToggleClick}
        aria-label="Toggle menu"
        aria-expanded={expanded}
        className="flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-full border border-line-strong text-ink transition-colors hover:bg-paper-raised [&::-webkit-details-marker]:hidden"
      >
        <span className="sr-only">Toggle menu</span>
        <Menu aria-hidden="true" className="h-5 w-5 group-open/menu:hidden" />
        <X aria-hidden="true" className="hidden h-5 w-5 group-open/menu:block" />
      </summary>
      <nav
        aria-label="Mobile"
        className="mobile-menu-panel absolute inset-x-0 top-[4.5rem] border-b border-line bg-paper px-5 pb-6 pt-3 shadow-raised"
      >
        <ul className="flex flex-col gap-1">
          {mainNav.map((item) => (
            <li key={item.to}>
              <NavItemLink item={item} pathname={pathname} className={linkClass} />
            </li>
          ))}
          <li className="pt-2">
            <NavItemLink item={ctaNav} pathname={pathname} className="btn-primary w-full py-3 text-base" />
          </li>
          <li className="pt-2">
            <NavItemLink
              item={templatesNav}
              pathname={pathname}
              className="flex items-center gap-2 rounded-xl px-4 py-3 text-lg font-semibold text-shop hover:bg-shop-soft"
            >
              <Sparkles aria-hidden="true" className="h-5 w-5" />
              {templatesNav.label}
            </NavItemLink>
          </li>
        </ul>
      </nav>
    </details>
  );
}
