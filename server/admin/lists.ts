/** What the console's lists share: the page size, the pages, the search. */

/** Rows per page of the console's lists. */
export const ADMIN_PAGE_SIZE = 25;

export type AdminListInput = { page?: number; q?: string };
export type Page<T> = { rows: T[]; total: number; page: number; pages: number; pageSize: number };

/** `%q%` for LIKE with the wildcards a person may type (`%`, `_`) taken literally (ESCAPE '\\'). */
export function containing(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The page numbers of a list of `total` rows, the asked page kept inside them. */
export function paging(total: number, asked: number | undefined) {
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(asked ?? 1)), pages);
  return { page, pages, offset: (page - 1) * ADMIN_PAGE_SIZE };
}
