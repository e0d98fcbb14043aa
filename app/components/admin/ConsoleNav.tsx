import { Link } from "@remix-run/react";

export const CONSOLE_TABS = [
  { id: "overview", label: "Overview" },
  { id: "templates", label: "Templates" },
  { id: "bookings", label: "Bookings" },
  { id: "purchases", label: "Purchases" },
] as const;
export type ConsoleTab = (typeof CONSOLE_TABS)[number]["id"];

/** The console's sections: the four tabs of /admin, then Settings (/admin/settings). */
export function ConsoleNav({ current }: { current: ConsoleTab | "settings" }) {
  const items = [
    ...CONSOLE_TABS.map((t) => ({ key: t.id, to: `/admin?tab=${t.id}`, label: t.label })),
    { key: "settings", to: "/admin/settings", label: "Settings" },
  ];
  return (
    <nav aria-label="Admin sections" className="mt-10 overflow-x-auto border-b border-line">
      <ul className="flex min-w-max gap-1">
        {items.map((t) => (
          <li key={t.key}>
            <Link
              to={t.to}
              preventScrollReset
              aria-current={current === t.key ? "page" : undefined}
              className={`inline-block border-b-2 px-4 py-3 text-sm font-semibold ${current === t.key ? "border-ink text-ink" : "border-transparent text-ink-muted hover:text-ink"}`}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
