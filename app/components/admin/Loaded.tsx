import type { ReactNode } from "react";

/**
 * A console card's body while its query runs: what could not be loaded (an alert with the reason),
 * "Loading …" (a status), then the data.
 */
export function Loaded<T>({
  error,
  data,
  what,
  children,
}: {
  error: { message: string } | null;
  data: T | undefined;
  /** "the figures", "the backups" */
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (error)
    return (
      <p className="field-error mt-4" role="alert">
        Could not load {what}: {error.message}
      </p>
    );
  if (data === undefined)
    return (
      <p className="mt-4 text-sm text-ink-muted" role="status">
        Loading {what}…
      </p>
    );
  return <>{children(data)}</>;
}
