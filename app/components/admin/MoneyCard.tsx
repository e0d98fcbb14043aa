import { Link, useSearchParams } from "@remix-run/react";
import { formatMoney } from "#domain/money";
import { trpc } from "~/trpc/react";
import { Loaded } from "./Loaded";
import type { AdminMoney } from "./types";

const CHART = { width: 720, height: 180, top: 12, bottom: 2, gap: 10 };

/**
 * Twelve months of money received as bars, drawn on the server (an SVG readable without
 * JavaScript); the chosen month is dark. Screen readers get the figures as a table instead.
 */
function MonthsChart({ money }: { money: AdminMoney }) {
  const max = Math.max(1, ...money.months.map((m) => m.received));
  const inner = CHART.height - CHART.top - CHART.bottom;
  const slot = CHART.width / money.months.length;
  const bar = slot - CHART.gap;
  return (
    <div className="mt-4 self-end">
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby="money-chart-title"
        data-testid="money-chart"
      >
        <title id="money-chart-title">Money received per month, the twelve months to {money.label}</title>
        <line
          x1="0"
          x2={CHART.width}
          y1={CHART.height - CHART.bottom}
          y2={CHART.height - CHART.bottom}
          className="stroke-line-strong"
        />
        {money.months.map((m, i) => {
          const h = m.received > 0 ? Math.max(2, Math.round((m.received / max) * inner)) : 0;
          const x = i * slot + CHART.gap / 2;
          const chosen = m.month === money.month;
          return (
            <g key={m.month}>
              <rect
                x={x}
                y={CHART.height - CHART.bottom - h}
                width={bar}
                height={h}
                rx="4"
                className={chosen ? "fill-ink" : "fill-accent/40"}
              >
                <title>{`${m.short}: ${formatMoney(m.received)}`}</title>
              </rect>
            </g>
          );
        })}
      </svg>
      {/* The months' names in HTML, so they keep a readable size however narrow the chart is. */}
      <ol className="mt-1 grid grid-cols-12 text-center text-[11px] text-ink-muted sm:text-xs" aria-hidden="true">
        {money.months.map((m) => (
          <li key={m.month} className={m.month === money.month ? "font-semibold text-ink" : ""}>
            {m.short}
          </li>
        ))}
      </ol>
      <table className="sr-only">
        <caption>Money received per month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Received</th>
          </tr>
        </thead>
        <tbody>
          {money.months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{m.short}</th>
              <td>{formatMoney(m.received)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Overview's money (issue 31.6): a month you choose (this one by default, in the studio's time
 * zone), what was received with its parts, twelve months as bars, the pipeline of open quotes
 * (never revenue), and the ledger as CSV. The month chooser is a link each way, so it works
 * without JavaScript.
 */
export function MoneyCard({ initial }: { initial?: AdminMoney }) {
  const [params] = useSearchParams();
  const month = params.get("month") ?? undefined;
  const q = trpc.admin.money.view.useQuery(month ? { month } : undefined, {
    initialData: initial && (!month || initial.month === month) ? initial : undefined,
  });
  const money = q.data;
  const to = (m: string) => {
    const next = new URLSearchParams(params);
    next.set("month", m);
    return `/admin?${next}`;
  };
  return (
    <section aria-labelledby="money-title" className="card p-5 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="money-title" className="font-sans text-lg font-semibold">
          Money received
        </h2>
        <nav aria-label="Month" className="flex items-center gap-1 text-sm">
          {money ? (
            <>
              <Link to={to(money.previous)} className="btn-ghost px-3 py-1.5" preventScrollReset>
                <span aria-hidden="true">←</span>
                <span className="sr-only">Previous month</span>
              </Link>
              <span className="min-w-[9rem] text-center font-semibold" aria-live="polite">
                {money.label}
              </span>
              {money.next ? (
                <Link to={to(money.next)} className="btn-ghost px-3 py-1.5" preventScrollReset>
                  <span aria-hidden="true">→</span>
                  <span className="sr-only">Next month</span>
                </Link>
              ) : (
                <span className="w-[2.6rem]" aria-hidden="true" />
              )}
            </>
          ) : null}
        </nav>
      </div>
      <Loaded error={q.error} data={money} what="the figures">
        {(money) => (
          <>
            <div className="mt-4 grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
              <div>
                <p className="font-display text-4xl" data-testid="money-received">
                  {formatMoney(money.received)}
                </p>
                <dl className="mt-3 grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-ink-muted">Booking payments</dt>
                  <dd className="text-right tabular-nums" data-testid="money-bookings">
                    {formatMoney(money.bookingPayments)}
                  </dd>
                  <dt className="text-ink-muted">Template sales</dt>
                  <dd className="text-right tabular-nums" data-testid="money-templates">
                    {formatMoney(money.templateSales)}
                  </dd>
                  <dt className="text-ink-muted">Refunds</dt>
                  <dd className="text-right tabular-nums" data-testid="money-refunds">
                    {money.refunds ? `−${formatMoney(money.refunds)}` : formatMoney(0)}
                  </dd>
                </dl>
                <p className="mt-4 rounded-field bg-paper-sunk px-3 py-2 text-sm" data-testid="money-pipeline">
                  <span className="font-semibold">Pipeline</span> {formatMoney(money.pipeline)}
                  <span className="text-ink-muted">
                    {" "}
                    still quoted in {money.pipelineBookings} open{" "}
                    {money.pipelineBookings === 1 ? "booking" : "bookings"} (not revenue)
                  </span>
                </p>
              </div>
              <MonthsChart money={money} />
            </div>
            <p className="mt-4 text-sm">
              <a href="/admin/export/ledger.csv" className="font-semibold text-accent-ink hover:underline" download>
                Download the ledger (CSV)
              </a>
              <span className="text-ink-muted"> · every payment and refund, with Stripe ids</span>
            </p>
          </>
        )}
      </Loaded>
    </section>
  );
}
