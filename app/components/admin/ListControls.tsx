import { Form, Link, useSearchParams } from "@remix-run/react";
import { ChevronLeft, ChevronRight, Download, Search } from "lucide-react";
import { useRef, type ReactNode } from "react";
import { formatInteger } from "#domain/numbers";
import { withPage } from "~/lib/admin-lists";

/**
 * The search box (and any filters given as children) of a console list: a GET form, so it works
 * without JavaScript and the view stays in the URL. Changing a filter submits at once.
 */
export function ListSearch({
  screen,
  label,
  exportFile,
  children,
}: {
  /** The console's screen the list is on (/admin/bookings, /admin/purchases). */
  screen: "bookings" | "purchases";
  label: string;
  exportFile: string;
  children?: ReactNode;
}) {
  const [params] = useSearchParams();
  const form = useRef<HTMLFormElement>(null);
  const id = `search-${screen}`;
  return (
    <Form
      ref={form}
      method="get"
      action={`/admin/${screen}`}
      preventScrollReset
      className="mb-4 flex flex-wrap items-end gap-3"
      onChange={(e) => (e.target as HTMLElement).tagName === "SELECT" && form.current?.requestSubmit()}
    >
      <div className="min-w-0 flex-1 basis-56">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-ink-muted"
          />
          <input
            id={id}
            type="search"
            name="q"
            defaultValue={params.get("q") ?? ""}
            maxLength={200}
            className="field-input pl-9"
            autoComplete="off"
          />
        </div>
      </div>
      {children}
      <button type="submit" className="btn-ghost min-h-[2.875rem]">
        Search
      </button>
      <a href={exportHref(exportFile, params)} className="btn-ghost min-h-[2.875rem]" download>
        <Download aria-hidden="true" className="h-4 w-4" /> Export CSV
      </a>
    </Form>
  );
}

/** Every row of the view (its search and filters, not its page) as CSV. */
function exportHref(file: string, params: URLSearchParams): string {
  const view = new URLSearchParams();
  for (const key of ["q", "status"]) {
    const value = params.get(key);
    if (value) view.set(key, value);
  }
  return `/admin/export/${file}${view.size ? `?${view}` : ""}`;
}

/** "Page 2 of 200 · 4,980 bookings" with Previous and Next as links (the page is in the URL). */
export function Pager({ page, pages, total, what }: { page: number; pages: number; total: number; what: string }) {
  const [params] = useSearchParams();
  const link = "btn-ghost px-3 py-1.5";
  return (
    <nav
      aria-label={`Pages of ${what}`}
      className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted"
    >
      <p>
        Page {page} of {pages} · {formatInteger(total)} {what}
      </p>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link to={withPage(params, page - 1)} preventScrollReset className={link} rel="prev">
            <ChevronLeft aria-hidden="true" className="h-4 w-4" /> Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link to={withPage(params, page + 1)} preventScrollReset className={link} rel="next">
            Next <ChevronRight aria-hidden="true" className="h-4 w-4" />
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
