import { formatDollars } from "#domain/money";

export type Stats = {
  totalRevenue: number;
  productRevenue: number;
  bookingsPaid: number;
  totalSales: number;
  topTemplate: { name: string; sales: number } | null;
  totalBookings: number;
  pendingBookings: number;
  /** Open bookings' quotes beyond what they paid: never counted as revenue. */
  pipeline: number;
};

export function StatsCards({ stats }: { stats: Stats }) {
  const cards = [
    {
      title: "Total Revenue",
      value: formatDollars(stats.totalRevenue, { decimals: 2 }),
      sub: `Products ${formatDollars(stats.productRevenue, { decimals: 2 })} · Bookings paid ${formatDollars(stats.bookingsPaid, { decimals: 2 })}`,
    },
    {
      title: "Total Sales",
      value: String(stats.totalSales),
      sub: stats.topTemplate ? `Top: ${stats.topTemplate.name} (${stats.topTemplate.sales} sold)` : "No sales yet",
    },
    { title: "Total Bookings", value: String(stats.totalBookings), sub: `${stats.pendingBookings} pending` },
    {
      title: "Bookings Revenue",
      value: formatDollars(stats.bookingsPaid, { decimals: 2 }),
      sub: `paid · Pipeline ${formatDollars(stats.pipeline, { decimals: 2 })} in open quotes`,
    },
  ];
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {cards.map((c) => (
        <li key={c.title} className="card p-4 sm:p-5">
          <p className="text-sm font-medium text-ink-muted">{c.title}</p>
          <p
            className="mt-1 font-display text-2xl sm:mt-2 sm:text-3xl"
            data-testid={`stat-${c.title.toLowerCase().replace(/\s+/g, "-")}`}
          >
            {c.value}
          </p>
          <p className="mt-1 text-xs text-ink-muted">{c.sub}</p>
        </li>
      ))}
    </ul>
  );
}
