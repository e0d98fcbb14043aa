import { NavLink } from "@remix-run/react";

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
 * NavLink) and underlined. On a phone the row scrolls sideways inside the page's width.
 */
export function ConsoleNav() {
  return (
    <nav aria-label="Admin sections" className="-mx-5 mt-10 overflow-x-auto border-b border-line px-5 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1">
        {CONSOLE_SCREENS.map((s) => (
          <li key={s.id}>
            <NavLink
              to={s.to}
              end={s.id === "overview"}
              preventScrollReset
              className={({ isActive }) =>
                `inline-block border-b-2 px-4 py-3 text-sm font-semibold ${isActive ? "border-ink text-ink" : "border-transparent text-ink-muted hover:text-ink"}`
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
