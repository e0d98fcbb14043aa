import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { Loader2 } from "lucide-react";
import { useState } from "react";
import { LazySignInDialog as SignInDialog } from "~/components/auth/LazySignInDialog";
import { ShopHero } from "~/components/shop/ShopHero";
import { TemplateCard } from "~/components/shop/TemplateCard";
import { TemplateShelf } from "~/components/shop/TemplateShelf";
import { CATEGORIES, CATEGORY_META, isCategory } from "#domain/categories";
import { seo } from "~/lib/seo";
import { signInDialogError } from "~/lib/signin-errors";
import { shopContext } from "../../server/trpc/page-data.server";
import { log } from "../../server/log.server";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Website templates",
    description:
      "Production-ready website templates built with React, TypeScript and Tailwind CSS. One-time payment, lifetime access and updates.",
    path: "/templates",
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user, googleConfigured, emailSignIn } = await shopContext(request);
  const templates = await caller.templates.list().catch((error: unknown) => {
    log.error({ err: error }, "[templates] list failed");
    return null;
  });
  return { templates, user, googleConfigured, emailSignIn };
}

/** Changing the category chip filters in the browser: no second fetch of the list. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
};

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function Catalogue({ data }: { data: LoaderData }) {
  const [params] = useSearchParams();
  const [dialogOpen, setDialogOpen] = useState(false);
  // The list comes with the page (no client for the API on public pages: issue 34.1); "Try again"
  // runs the loader once more.
  const revalidator = useRevalidator();
  const category = isCategory(params.get("category")) ? params.get("category")! : "all";
  const serverDialog = params.get("signin") === "required";
  const showDialog = (serverDialog || dialogOpen) && !data.user;
  const authFailed = params.get("error") === "auth_failed";
  // A failed Google sign-in comes back as ?signin=required&error=google_failed: its message
  // belongs to the dialog, and closing or reopening the dialog drops it.
  const dialogError = signInDialogError(params.get("error"));
  const closeParams = new URLSearchParams(params);
  closeParams.delete("signin");
  if (dialogError) closeParams.delete("error");
  const closeHref = `/templates${closeParams.toString() ? `?${closeParams}` : ""}`;
  const openParams = new URLSearchParams(params);
  openParams.set("signin", "required");
  if (dialogError) openParams.delete("error");

  const templates = data.templates ?? [];
  // Each template once per view: "All" shows the buyer's own, then up to four featured, then the
  // rest; a category shows its templates only (owned ones carry their badge).
  const all = category === "all";
  const owned = all ? templates.filter((t) => t.owned) : [];
  const featured = all ? templates.filter((t) => t.featured && !t.owned).slice(0, 4) : [];
  const shownAbove = new Set([...owned, ...featured].map((t) => t.id));
  const visible = all
    ? templates.filter((t) => !shownAbove.has(t.id))
    : templates.filter((t) => t.category === category);
  const count = (c: string) => templates.filter((t) => t.category === c).length;
  const chip = (active: boolean) =>
    `inline-flex items-center gap-2 rounded-full border px-4 py-2 text-sm font-medium transition-colors ${
      active ? "border-ink bg-ink text-paper" : "border-line-strong bg-white text-ink-soft hover:border-ink"
    }`;

  return (
    <>
      <ShopHero user={data.user} signInHref={`/templates?${openParams}`} onSignIn={() => setDialogOpen(true)} />
      {authFailed ? (
        <div role="alert" className="container-page mt-8">
          <div className="flex flex-col gap-3 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger sm:flex-row sm:items-center sm:justify-between">
            <p>We couldn&apos;t sign you in: the link is invalid, expired or already used. Please request a new one.</p>
            <Link
              to="/templates?signin=required"
              preventScrollReset
              onClick={(e) => {
                e.preventDefault();
                setDialogOpen(true);
              }}
              className="shrink-0 self-start rounded-full bg-danger px-4 py-1.5 font-semibold text-white hover:opacity-90 sm:self-auto"
            >
              Try again
            </Link>
          </div>
        </div>
      ) : null}

      {revalidator.state === "loading" && !data.templates ? (
        <div
          className="container-page flex min-h-[30vh] items-center justify-center gap-3 text-ink-muted"
          role="status"
        >
          <Loader2 aria-hidden="true" className="h-5 w-5 animate-spin" /> Loading templates...
        </div>
      ) : !data.templates ? (
        <div className="container-page py-20 text-center" role="alert">
          <h2 className="text-4xl">Oops!</h2>
          <p className="mt-3 text-ink-muted">Failed to load templates. Please try again later.</p>
          <button type="button" onClick={() => revalidator.revalidate()} className="btn-dark mt-6">
            Try again
          </button>
        </div>
      ) : (
        <div className="container-page">
          {owned.length ? (
            <TemplateShelf id="mine-title" title="My templates" templates={owned} className="mt-14" />
          ) : null}
          {featured.length ? (
            <TemplateShelf
              id="featured-title"
              title="Featured templates"
              templates={featured}
              className="mt-14"
              wide
              eager={2}
            />
          ) : null}
          <section className="mt-16" aria-labelledby="all-title">
            <h2 id="all-title" className="text-3xl">
              Browse by category
            </h2>
            <nav aria-label="Categories" className="mt-6">
              <ul className="flex flex-wrap gap-2">
                <li>
                  <Link
                    to="/templates"
                    preventScrollReset
                    className={chip(category === "all")}
                    aria-current={category === "all" ? "page" : undefined}
                  >
                    All templates <span className="opacity-70">{templates.length}</span>
                  </Link>
                </li>
                {CATEGORIES.map((c) => (
                  <li key={c}>
                    <Link
                      to={`/templates?category=${c}`}
                      preventScrollReset
                      className={chip(category === c)}
                      aria-current={category === c ? "page" : undefined}
                    >
                      {CATEGORY_META[c].label} <span className="opacity-70">{count(c)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            {visible.length ? (
              <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="template-grid">
                {visible.map((t) => (
                  <TemplateCard key={t.id} t={t} />
                ))}
              </ul>
            ) : (
              <p className="mt-10 rounded-card border border-dashed border-line-strong px-6 py-12 text-center text-ink-muted">
                {!templates.length
                  ? "No templates for sale yet."
                  : all
                    ? "Every template is shown above."
                    : "No templates found in this category."}
              </p>
            )}
          </section>
          <section
            className="mt-20 rounded-card bg-ink px-8 py-12 text-paper sm:flex sm:items-center sm:justify-between"
            aria-labelledby="custom-title"
          >
            <div>
              <h2 id="custom-title" className="text-3xl text-paper">
                Need something custom?
              </h2>
              <p className="mt-2 text-paper/75">
                Get a site designed and built around your business, at a fixed price.
              </p>
            </div>
            <Link to="/packages" className="btn-primary mt-6 sm:mt-0">
              View packages
            </Link>
          </section>
        </div>
      )}
      {showDialog ? (
        <SignInDialog
          closeHref={closeHref}
          onClose={dialogOpen && !serverDialog ? () => setDialogOpen(false) : undefined}
          googleConfigured={data.googleConfigured}
          emailSignIn={data.emailSignIn}
          error={serverDialog ? dialogError : null}
        />
      ) : null}
    </>
  );
}

export default function Templates() {
  return <Catalogue data={useLoaderData<typeof loader>()} />;
}
