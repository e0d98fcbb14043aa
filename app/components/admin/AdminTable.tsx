import type { ReactNode } from "react";

/** A column header; an empty label is read by screen readers as `srLabel`. */
export type Column = { label: string; srLabel?: string };

/** The admin tables: scroll sideways on phones, one header style. */
export function AdminTable({ columns, minWidth, children }: { columns: Column[]; minWidth: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-card border border-line bg-white">
      <table className="w-full text-left text-sm" style={{ minWidth }}>
        <thead className="border-b border-line bg-paper-sunk/60 text-xs uppercase tracking-wider text-ink-muted">
          <tr>
            {columns.map((c) => (
              <th key={c.label || c.srLabel} scope="col" className="px-4 py-3">
                {c.label || <span className="sr-only">{c.srLabel}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{children}</tbody>
      </table>
    </div>
  );
}

/** The loading line or the empty message of an admin list, or null when there are rows. */
export function ListState({ loading, empty, what }: { loading: boolean; empty: boolean; what: string }) {
  if (loading) return <p role="status" className="text-ink-muted">Loading {what}...</p>;
  if (empty) return <p className="rounded-card border border-dashed border-line-strong p-10 text-center text-ink-muted">No {what} yet.</p>;
  return null;
}
