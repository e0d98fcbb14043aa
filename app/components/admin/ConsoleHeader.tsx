import { Form, Link } from "@remix-run/react";
import { ArrowLeft, LogOut } from "lucide-react";
import { Logo } from "~/components/layout/Logo";

/** The console's own header (instead of the site's): who is signed in, a way back to the shop, sign out. */
export function ConsoleHeader({ email, isSuperAdmin }: { email: string; isSuperAdmin: boolean }) {
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-paper-raised/95 backdrop-blur supports-[backdrop-filter]:bg-paper-raised/80">
      <div className="container-page flex flex-wrap items-center justify-between gap-x-6 gap-y-3 py-3">
        <div className="flex items-center gap-3">
          <Logo />
          <span className="eyebrow border-l border-line pl-3">Console</span>
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2 text-sm">
          <span className="flex min-w-0 items-center gap-2">
            <span className="shrink-0 rounded-full bg-ink px-2.5 py-0.5 text-xs font-semibold text-paper">
              {isSuperAdmin ? "Super Admin" : "Admin"}
            </span>
            <span className="min-w-0 truncate text-ink-muted" title={email}>
              {email}
            </span>
          </span>
          <span className="flex items-center gap-2">
            <Link to="/templates" className="btn-ghost px-3 py-1.5">
              <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to Shop
            </Link>
            <Form method="post" action="/auth/logout">
              <button type="submit" className="btn-ghost px-3 py-1.5">
                <LogOut aria-hidden="true" className="h-4 w-4" /> Sign out
              </button>
            </Form>
          </span>
        </div>
      </div>
    </header>
  );
}
