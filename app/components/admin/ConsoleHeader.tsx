import { Form, Link } from "@remix-run/react";
import { ArrowLeft, LogOut } from "lucide-react";
import { Logo } from "~/components/layout/Logo";

/**
 * The console's own header (instead of the site's): who is signed in, a way back to the shop, sign
 * out. On a phone two rows: the logo with the two buttons (icons, their names for screen readers),
 * then who is signed in; from 640 px one row.
 */
export function ConsoleHeader({ email, isSuperAdmin }: { email: string; isSuperAdmin: boolean }) {
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-paper-raised/95 backdrop-blur supports-[backdrop-filter]:bg-paper-raised/80">
      <div className="container-page flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
        <div className="flex items-center gap-3">
          <Logo />
          <span className="eyebrow border-l border-line pl-3">Console</span>
        </div>
        <span className="order-last flex w-full min-w-0 items-center gap-2 text-sm sm:order-none sm:ml-auto sm:w-auto">
          <span className="shrink-0 rounded-full bg-ink px-2.5 py-0.5 text-xs font-semibold text-paper">
            {isSuperAdmin ? "Super Admin" : "Admin"}
          </span>
          <span className="min-w-0 truncate text-ink-muted" title={email}>
            {email}
          </span>
        </span>
        <span className="flex items-center gap-2 text-sm">
          <Link to="/templates" className="btn-ghost px-2.5 py-1.5 sm:px-3" title="Back to Shop">
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            <span className="sr-only sm:not-sr-only">Back to Shop</span>
          </Link>
          <Form method="post" action="/auth/logout">
            <button type="submit" className="btn-ghost px-2.5 py-1.5 sm:px-3" title="Sign out">
              <LogOut aria-hidden="true" className="h-4 w-4" />
              <span className="sr-only sm:not-sr-only">Sign out</span>
            </button>
          </Form>
        </span>
      </div>
    </header>
  );
}
