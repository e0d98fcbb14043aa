import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";

/** A column header; an empty label is read by screen readers as `srLabel`. */
export type Column = { label: string; srLabel?: string };

type Cell = ReactElement<{ "data-label"?: string; children?: ReactNode }>;

/** Each row's cells labelled with their column, for the stacked cards of a phone. */
function labelled(rows: ReactNode, columns: Column[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement<{ children?: ReactNode }>(row)) return row;
    let i = 0;
    const cells = Children.map(row.props.children, (cell) => {
      if (!isValidElement(cell)) return cell;
      const label = columns[i++]?.label;
      // One wrapper, so the cell's content sits in one column beside its label.
      return label
        ? cloneElement(cell as Cell, { "data-label": label }, <div>{(cell as Cell).props.children}</div>)
        : cell;
    });
    return cloneElement(row, {}, cells);
  });
}

/**
 * The admin tables, one header style. From 768 px a table (`minWidth` wide, scrolling sideways
 * inside its card when the screen is narrower); below, each row is a card whose cells carry
 * their column's name, so nothing is off screen at 390 px (the `admin-table` rules in tailwind.css).
 */
export function AdminTable({
  columns,
  minWidth,
  children,
}: {
  columns: Column[];
  minWidth: string;
  children: ReactNode;
}) {
  return (
    <div className="admin-table overflow-x-auto rounded-card border border-line bg-white">
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
        <tbody className="divide-y divide-line">{labelled(children, columns)}</tbody>
      </table>
    </div>
  );
}

/** The loading line or the empty message of an admin list, or null when there are rows. */
export function ListState({
  loading,
  empty,
  what,
  emptyText,
}: {
  loading: boolean;
  empty: boolean;
  what: string;
  emptyText?: string;
}) {
  if (loading)
    return (
      <p role="status" className="text-ink-muted">
        Loading {what}...
      </p>
    );
  if (empty)
    return (
      <p className="rounded-card border border-dashed border-line-strong p-10 text-center text-ink-muted">
        {emptyText ?? `No ${what} yet.`}
      </p>
    );
  return null;
}
