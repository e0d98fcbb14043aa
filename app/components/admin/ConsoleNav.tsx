import { NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** The console's screens, each at its own address (decision 033). */
export const CONSOLE_SCREENS = [
  { id: "overview", label: "Overview", to: "/admin" },
  { id: "templates", label: "Templates", to: "/admin/templates" },
  { id: "bookings", label: "Bookings", to: "/admin/bookings" },
  { id: "purchases", label: "Purchases", to: "/admin/purchases" },
  { id: "settings", label: "Settings", to: "/admin/settings" },
] as const;
export type ConsoleScreen = (typeof CONSOLE_SCREENS)[number]["id"];

/**
 * The console's sections as links; the current screen's is marked (`aria-current="page"`, set by
 * NavLink) and underlined. On a phone the row scrolls sideways, edge to edge, and shows the
 * current screen's link.
 */
export function ConsoleNav() {
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const row = nav.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current) return;
    const left = current.offsetLeft;
    const right = left + current.offsetWidth;
    if (left < row.scrollLeft || right > row.scrollLeft + row.clientWidth) row.scrollLeft = left - 20;
  }, [pathname]);
  return (
    <nav
      ref={nav}
      aria-label="Admin sections"
      className="relative -mx-5 mt-10 overflow-x-auto border-b border-line px-5 sm:mx-0 sm:px-0"
    >
      <ul className="flex min-w-max gap-1">
        {CONSOLE_SCREENS.map((s) => (
          <li key={s.id}>
            <NavLink
              to={s.to}
              end={s.id === "overview"}
              preventScrollReset
              className={({ isActive }) =>
                `inline-block border-b-2 px-3 py-3 text-sm font-semibold sm:px-4 ${isActive ? "border-ink text-ink" : "border-transparent text-ink-muted hover:text-ink"}`
              }
            >
              {s.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
