// duplicates: a list of imports, the Remix names a route with a loader and an action uses
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { RouteNotFound } from "~/components/ui/ErrorBoundary";
import { TRPCError } from "@trpc/server";
import { ArrowLeft, Check, RefreshCw, Star } from "lucide-react";
import { useState } from "react";
import { LazySignInDialog as SignInDialog } from "~/components/auth/LazySignInDialog";
import { OwnerBanner, PurchaseButton } from "~/components/shop/PurchaseBox";
import type { PurchaseReply } from "~/components/shop/purchase-reply";
import { TemplateShelf } from "~/components/shop/TemplateShelf";
import { TemplatePreview } from "~/components/shop/TemplatePreview";
import { categoryMeta } from "#domain/categories";
import { formatDollars } from "#domain/money";
import { pageTitle, seo } from "~/lib/seo";
import { requireUser } from "../../server/http/session.server";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";
import { reconcileSession } from "../../server/shop/checkout.server";
import { TooManyRequests } from "../../server/rate-limit.server";
import { shopContext } from "../../server/trpc/page-data.server";
import { rememberThanks, takeThanks } from "../../server/http/purchase-thanks.server";
import { purchaseFor } from "../../server/shop/purchases.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller, user, googleConfigured, emailSignIn } = await shopContext(request);
  const template = await caller.templates.bySlug({ slug: params.slug ?? "" }).catch((error: unknown) => {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
    throw error;
  });
  if (!template) throw Response.json({ back: "/templates", notFound: "template" }, { status: 404 });
  const url = new URL(request.url);
  const sessionId = url.searchParams.get("session_id");
  const checkout = user && sessionId ? await reconcileSession(db(), env(), sessionId, user.id) : null;
  // Back from checkout and paid: the template's own address greets the buyer there, once.
  if (checkout === "owned") {
    throw redirect(`/templates/${template.slug}`, { headers: { "Set-Cookie": await rememberThanks(template.id) } });
  }
  const thanks = user ? await takeThanks(request, template.id) : { greet: false };
  const [related, purchase] = await Promise.all([
    caller.templates.related({ templateId: template.id, category: template.category }),
    user ? purchaseFor(db(), user.id, template.id) : Promise.resolve(null),
  ]);
  const revoked = !purchase && (checkout === "refunded" || checkout === "disputed") ? REVOKED_NOTICE[checkout] : null;
  return data(
    {
      template,
      related,
      purchase,
      user,
      googleConfigured,
      emailSignIn,
      finalising: checkout === "pending" && !purchase,
      revoked,
      thanks: thanks.greet && Boolean(purchase),
    },
    thanks.clear ? { headers: { "Set-Cookie": thanks.clear } } : undefined,
  );
}

/** The loader's Set-Cookie (clearing the one-time greeting) reaches the document response. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** The success URL of a checkout whose payment was refunded or disputed (it never grants access again). */
const REVOKED_NOTICE = {
  refunded:
    "Your payment for this template was refunded, so its files are no longer available to you. You can purchase it again below.",
  disputed:
    "Your payment for this template was disputed, so its files are no longer available to you. You can purchase it again below.",
} as const;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo(matches, {
        title: `${data.template.name} template`,
        description: data.template.tagline,
        path: `/templates/${data.template.slug}`,
        image: data.template.imageUrl ?? undefined,
      })
    : [{ title: pageTitle(matches, "Template not found") }];

/**
 * Purchase and download. Without JavaScript a plain form post, answered with a redirect (to
 * Stripe Checkout, or to the file). With it, the same post through a fetcher (`reply=json`),
 * answered with what the page needs: the checkout's URL, or the file's link and the new count.
 */
export async function action({
  request,
  params,
}: ActionFunctionArgs): Promise<PurchaseReply | Response | ReturnType<typeof data<PurchaseReply>>> {
  const user = await requireUser(request);
  const form = await request.formData();
  const json = form.get("reply") === "json";
  const download = form.get("intent") === "download";
  const { caller } = await shopContext(request);
  const template = await caller.templates.bySlug({ slug: params.slug ?? "" }).catch(() => null);
  if (!template) throw Response.json({ back: "/templates" }, { status: 404 });
  try {
    if (download) {
      const created = await caller.downloads.create({ templateId: template.id });
      return json ? { download: created } : redirect(created.url);
    }
    const { url } = await caller.checkout.create({ templateId: template.id });
    if (!url) return { error: "No checkout URL returned" };
    return json ? { checkoutUrl: url } : redirect(url);
  } catch (error) {
    if (error instanceof TRPCError && error.code === "CONFLICT" && user)
      return json ? { alreadyOwned: true } : redirect("/dashboard");
    if (error instanceof TRPCError && error.cause instanceof TooManyRequests) {
      return data(
        { error: error.message },
        { status: 429, headers: { "Retry-After": String(error.cause.retryAfterSeconds) } },
      );
    }
    if (download) return { error: "Failed to download template. Please contact support." };
    return { error: error instanceof TRPCError ? error.message : "Failed to start checkout. Please try again." };
  }
}

function Detail() {
  const {
    template: t,
    related,
    purchase,
    user,
    googleConfigured,
    emailSignIn,
    finalising,
    revoked,
    thanks,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [dialogOpen, setDialogOpen] = useState(false);
  const here = `/templates/${t.slug}`;
  const signInHref = `${here}?signin=required`;
  const showDialog = !user && (dialogOpen || params.get("signin") === "required");
  // The purchase button as the price box and the closing band both show it.
  const buy = { signedIn: Boolean(user), signInHref, onSignIn: () => setDialogOpen(true) };
  const sale = t.onSale && t.originalPrice !== null && t.originalPrice > t.price;
  const meta = categoryMeta(t.category);

  const priceBox = (
    <div className="card p-6 shadow-raised">
      <p className="flex items-baseline gap-3">
        <span className="font-display text-5xl">{formatDollars(t.price)}</span>
        {sale ? <s className="text-xl text-ink-faint">{formatDollars(t.originalPrice!)}</s> : null}
        {sale ? (
          <span className="self-center rounded-full bg-accent px-2.5 py-1 text-xs font-semibold text-white">Sale</span>
        ) : null}
      </p>
      <div className="mt-5">
        <PurchaseButton {...buy} serverError={actionData && "error" in actionData ? actionData.error : undefined} />
      </div>
      <p className="mt-3 text-center text-sm text-ink-muted">One-time payment. Lifetime access and updates.</p>
      {!user ? (
        <div className="mt-5 rounded-field bg-paper-sunk px-4 py-3 text-sm">
          <p className="font-medium">Already purchased this?</p>
          <Link
            to={signInHref}
            preventScrollReset
            onClick={(e) => {
              e.preventDefault();
              setDialogOpen(true);
            }}
            className="mt-1 inline-block font-semibold text-shop hover:underline"
          >
            Sign In
          </Link>
        </div>
      ) : null}
    </div>
  );

  return (
    <div className="container-page pt-10">
      <Link
        to="/templates"
        className="inline-flex items-center gap-2 text-sm font-medium text-ink-muted hover:text-ink"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to templates
      </Link>
      <div className="mt-8 grid gap-10 lg:grid-cols-[1.5fr_1fr]">
        <div>
          <div className="overflow-hidden rounded-card border border-line">
            <TemplatePreview name={t.name} category={t.category} imageUrl={t.imageUrl} eager />
          </div>
          {t.images.length > 1 ? (
            <ul className="mt-4 grid grid-cols-3 gap-3" aria-label="More previews">
              {t.images.slice(1, 4).map((src, i) => (
                <li key={src} className="overflow-hidden rounded-field border border-line">
                  <img
                    src={src}
                    alt={`${t.name} preview ${i + 2}`}
                    width={1200}
                    height={800}
                    loading="lazy"
                    className="aspect-[3/2] w-full object-cover"
                  />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div>
          <p className="text-xs font-semibold uppercase tracking-wider text-shop">{meta.label}</p>
          <h1 className="mt-2 text-5xl leading-tight">{t.name}</h1>
          <p className="mt-3 text-lg text-ink-muted">{t.tagline}</p>
          <p className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-ink-muted">
            {t.reviewCount > 0 ? (
              <span className="inline-flex items-center gap-1">
                <Star aria-hidden="true" className="h-4 w-4 fill-current text-amber-500" />
                <span className="font-medium text-ink">{t.rating.toFixed(1)}</span> ({t.reviewCount}{" "}
                {t.reviewCount === 1 ? "review" : "reviews"})
              </span>
            ) : null}
            {t.salesCount > 0 ? <span>{t.salesCount === 1 ? "1 sale" : `${t.salesCount} sales`}</span> : null}
            <span className="inline-flex items-center gap-1">
              <RefreshCw aria-hidden="true" className="h-4 w-4" /> Lifetime updates
            </span>
          </p>
          <div className="mt-6">
            {purchase ? (
              <>
                {thanks ? (
                  <p
                    role="status"
                    className="mb-4 flex items-center gap-2 rounded-card bg-shop px-5 py-4 font-semibold text-white"
                  >
                    <Check aria-hidden="true" className="h-5 w-5 shrink-0" />
                    Thanks — your files are ready.
                  </p>
                ) : null}
                <OwnerBanner purchase={purchase} />
              </>
            ) : finalising ? (
              <p
                role="status"
                className="rounded-card border border-shop/30 bg-shop-soft p-6 font-medium text-shop-ink"
              >
                Finalising your purchase… This page updates as soon as the payment is confirmed.{" "}
                <Link to={here} className="underline">
                  Refresh
                </Link>
              </p>
            ) : (
              <>
                {revoked ? (
                  <p
                    role="status"
                    className="mb-4 rounded-card border border-line-strong bg-paper-sunk p-4 text-sm text-ink-soft"
                  >
                    {revoked}
                  </p>
                ) : null}
                {priceBox}
              </>
            )}
          </div>
        </div>
      </div>

      <div className="mt-16 grid gap-12 lg:grid-cols-[1.5fr_1fr]">
        <div className="space-y-12">
          <section aria-labelledby="desc-title">
            <h2 id="desc-title" className="text-3xl">
              About this template
            </h2>
            <p className="mt-4 max-w-prose text-lg leading-relaxed text-ink-soft">{t.description}</p>
          </section>
          <CheckList id="features-title" title="Features" items={t.features} />
          <CheckList id="included-title" title="What's included" items={t.included} />
        </div>
        <aside aria-labelledby="stack-title">
          <h2 id="stack-title" className="text-2xl">
            Tech stack
          </h2>
          <p className="mt-2 text-sm text-ink-muted">
            Built with React, TypeScript and Tailwind CSS. One-time payment, lifetime updates.
          </p>
          <ul className="mt-4 flex flex-wrap gap-2">
            {t.techStack.map((s) => (
              <li key={s} className="rounded-full border border-line-strong bg-white px-3 py-1 text-sm">
                {s}
              </li>
            ))}
          </ul>
        </aside>
      </div>

      {related.length ? (
        <TemplateShelf id="related-title" title="You might also like" templates={related} className="mt-20" />
      ) : null}

      {!purchase ? (
        <section
          className="mt-20 rounded-card bg-ink px-8 py-12 text-paper sm:flex sm:items-center sm:justify-between"
          aria-labelledby="ready-title"
        >
          <div>
            <h2 id="ready-title" className="text-3xl text-paper">
              Ready to get started?
            </h2>
            <p className="mt-2 text-paper/75">
              {t.name} for {formatDollars(t.price)}. One-time payment. Lifetime access and updates.
            </p>
          </div>
          <div className="mt-6 w-full sm:mt-0 sm:w-56">
            <PurchaseButton {...buy} label={`Purchase ${t.name}`} />
          </div>
        </section>
      ) : null}
      {showDialog ? (
        <SignInDialog
          closeHref={here}
          onClose={dialogOpen ? () => setDialogOpen(false) : undefined}
          googleConfigured={googleConfigured}
          emailSignIn={emailSignIn}
          redirectTo={here}
        />
      ) : null}
    </div>
  );
}

export default function TemplatePage() {
  return <Detail />;
}

export function ErrorBoundary() {
  return (
    <RouteNotFound
      title="Template not found"
      text="This template does not exist or is no longer available."
      to="/templates"
      action="Back to templates"
    />
  );
}

/** A titled list of ticks: the template's features, what it includes. */
function CheckList({ id, title, items }: { id: string; title: string; items: string[] }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-3xl">
        {title}
      </h2>
      <ul className="mt-4 grid gap-2 sm:grid-cols-2">
        {items.map((f) => (
          <li key={f} className="flex gap-2 text-ink-soft">
            <Check aria-hidden="true" className="mt-1 h-4 w-4 shrink-0 text-shop" />
            {f}
          </li>
        ))}
      </ul>
    </section>
  );
}
