import { Form, Link, useLocation } from "@remix-run/react";
import { LogOut, Shield, ShoppingBag } from "lucide-react";
import { useEffect, useRef } from "react";

/**
 * The signed-in visitor's menu in the header, on every page: their email, their templates, the
 * console for admins, and Sign out. A <details> disclosure, so it opens without JavaScript too;
 * with it, Escape and a click elsewhere close it, and it closes on navigation.
 */
/** The signed-in visitor as the root loader gives it; null when signed out. */
export type Account = { email: string; isAdmin: boolean } | null;

export function AccountMenu({ account }: { account: Account }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    ref.current?.removeAttribute("open");
  }, [pathname]);
  useEffect(() => {
    const close = (e: Event) => {
      const el = ref.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !el.contains(e.target as Node)) {
        el.removeAttribute("open");
        if (e instanceof KeyboardEvent) el.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  if (!account) return null;
  const initial = account.email.slice(0, 1).toUpperCase();
  return (
    <details ref={ref} className="group relative" data-testid="account-menu">
      <summary
        aria-label={`Account: ${account.email}`}
        className="flex cursor-pointer list-none items-center gap-2 rounded-full border border-line-strong py-1 pl-1 pr-1 text-sm font-medium text-ink hover:bg-paper-sunk md:pr-3 [&::-webkit-details-marker]:hidden"
      >
        <span
          aria-hidden="true"
          className="flex h-8 w-8 items-center justify-center rounded-full bg-ink text-sm font-semibold text-paper"
        >
          {initial}
        </span>
        <span className="hidden max-w-[12rem] truncate md:inline">{account.email}</span>
      </summary>
      <div className="absolute right-0 z-50 mt-2 w-64 rounded-card border border-line bg-paper-raised p-2 shadow-raised">
        <p className="truncate px-3 py-2 text-sm text-ink-muted">
          Signed in as <span className="font-semibold text-ink">{account.email}</span>
        </p>
        <ul className="border-t border-line pt-1 text-sm">
          <li>
            <Link to="/templates" className="flex items-center gap-2 rounded-field px-3 py-2 hover:bg-paper-sunk">
              <ShoppingBag aria-hidden="true" className="h-4 w-4" /> My templates
            </Link>
          </li>
          {account.isAdmin ? (
            <li>
              <Link to="/admin" className="flex items-center gap-2 rounded-field px-3 py-2 hover:bg-paper-sunk">
                <Shield aria-hidden="true" className="h-4 w-4" /> Admin console
              </Link>
            </li>
          ) : null}
          <li>
            <Form method="post" action="/auth/logout">
              <button
                type="submit"
                className="flex w-full items-center gap-2 rounded-field px-3 py-2 text-left hover:bg-paper-sunk"
              >
                <LogOut aria-hidden="true" className="h-4 w-4" /> Sign out
              </button>
            </Form>
          </li>
        </ul>
      </div>
    </details>
  );
}
