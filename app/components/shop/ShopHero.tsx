import { Form, Link } from "@remix-run/react";
import { Sparkles } from "lucide-react";

export function ShopHero({
  user,
  signInHref,
  onSignIn,
}: {
  user: { email: string; isAdmin: boolean } | null;
  signInHref: string;
  onSignIn?: () => void;
}) {
  return (
    <header className="border-b border-line bg-shop-soft/50">
      <div className="container-page flex flex-col gap-8 pb-14 pt-16 sm:pt-20 md:flex-row md:items-end md:justify-between">
        <div>
          <p className="eyebrow inline-flex items-center gap-2 text-shop-ink">
            <Sparkles aria-hidden="true" className="h-4 w-4" /> Templates
          </p>
          <h1 className="mt-4 max-w-3xl text-[2.75rem] leading-[1.04] sm:text-6xl">
            Website templates, crafted with care.
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-ink-muted">
            Built with React, TypeScript and Tailwind CSS. Launch in 2-3 days. One-time payment, lifetime access and
            updates.
          </p>
        </div>
        <div className="shrink-0">
          {user ? (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span className="font-medium text-ink">{user.email}</span>
              {user.isAdmin ? (
                <Link
                  to="/admin"
                  className="rounded-full bg-ink px-3 py-1 text-xs font-semibold text-paper hover:bg-ink-soft"
                >
                  Admin
                </Link>
              ) : null}
              <Form method="post" action="/auth/logout">
                <button type="submit" className="btn-ghost py-2">
                  Sign out
                </button>
              </Form>
            </div>
          ) : (
            <Link
              to={signInHref}
              preventScrollReset
              onClick={(e) => {
                if (onSignIn) {
                  e.preventDefault();
                  onSignIn();
                }
              }}
              className="btn-shop px-6 py-3"
            >
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
