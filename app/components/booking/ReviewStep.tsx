import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export type ReviewSection = { step: number; title: string; rows: [string, ReactNode][] };

/** Step 6: every answer, grouped by step with an Edit link, and the total. */
export function ReviewStep({
  sections,
  total,
  next = "Next, book your free 20-minute discovery call. Please book at least 2 days ahead so there is time to review your answers.",
}: {
  sections: ReviewSection[];
  total: string;
  /** What comes after the review (the built-in calendar's words differ from Calendly's). */
  next?: string;
}) {
  return (
    <div className="space-y-6">
      {sections.map((sec) => (
        <section
          key={sec.step}
          className="rounded-card border border-line bg-white"
          aria-labelledby={`review-${sec.step}`}
        >
          <div className="flex items-center justify-between border-b border-line px-5 py-3">
            <h3 id={`review-${sec.step}`} className="font-sans text-sm font-semibold uppercase tracking-wider">
              {sec.title}
            </h3>
            <Link
              to={`/booking?step=${sec.step}&from=review`}
              className="text-sm font-medium text-accent-ink hover:underline"
              aria-label={`Edit ${sec.title}`}
            >
              Edit
            </Link>
          </div>
          <dl className="divide-y divide-line">
            {sec.rows.map(([k, v]) => (
              <div key={k} className="grid gap-1 px-5 py-3 sm:grid-cols-[12rem_1fr]">
                <dt className="text-sm text-ink-muted">{k}</dt>
                <dd className="break-words text-sm">{v || "—"}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="flex items-baseline justify-between rounded-card bg-ink px-5 py-4 text-paper">
        <span className="text-sm font-medium">Estimated total</span>
        <span className="font-display text-3xl" data-testid="review-total">
          {total}
        </span>
      </div>
      <p className="text-sm text-ink-muted">{next}</p>
    </div>
  );
}
