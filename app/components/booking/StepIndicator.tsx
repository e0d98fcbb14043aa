import { Link } from "@remix-run/react";
import { Check, Lock } from "lucide-react";
import { STEP_TITLES } from "#domain/booking-rules";

/** Six steps; a step is a link only when every earlier step is complete, otherwise it shows a lock. */
export function StepIndicator({ current, allowed }: { current: number; allowed: number }) {
  return (
    <nav aria-label="Booking steps">
      <ol className="grid grid-cols-6 gap-1.5 sm:gap-3">
        {STEP_TITLES.map((title, i) => {
          const n = i + 1;
          const isCurrent = n === current;
          const locked = n > allowed;
          const done = n < allowed && !isCurrent;
          const bar = isCurrent ? "bg-accent" : done ? "bg-ink" : "bg-line-strong";
          const inner = (
            <>
              <span className={`block h-1 rounded-full ${bar}`} />
              <span
                className={`mt-2 flex items-center gap-1 text-xs font-medium ${isCurrent ? "text-ink" : "text-ink-muted"}`}
              >
                {locked ? (
                  <Lock aria-hidden="true" className="h-3 w-3 shrink-0" />
                ) : done ? (
                  <Check aria-hidden="true" className="h-3 w-3 shrink-0" />
                ) : null}
                <span className="sr-only sm:not-sr-only">{title}</span>
                <span className="sm:hidden" aria-hidden="true">
                  {n}
                </span>
              </span>
            </>
          );
          return (
            <li key={title}>
              {locked ? (
                <span
                  aria-disabled="true"
                  title={`${title} (locked until earlier steps are complete)`}
                  className="block cursor-not-allowed"
                >
                  <span className="sr-only">Step {n}: </span>
                  {inner}
                  <span className="sr-only"> (locked)</span>
                </span>
              ) : (
                <Link
                  to={`/booking?step=${n}`}
                  aria-current={isCurrent ? "step" : undefined}
                  className="block rounded focus-visible:ring-offset-4"
                >
                  <span className="sr-only">Step {n}: </span>
                  {inner}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
