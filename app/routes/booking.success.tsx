import { data, redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CalendarCheck, Mail, NotebookPen } from "lucide-react";
import { useEffect, useRef } from "react";
import { site } from "~/content/site";
import { seo } from "~/lib/seo";
import { readDraft } from "../../server/booking/draft.server";
import { successPageFor } from "../../server/booking/success.server";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, { title: "You're all set!", description: "Your consultation request has been received.", path: "/booking/success", noindex: true });

/** Rendered for one visitor's cookie: never stored by a browser or a shared cache. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * Only for a visitor whose booking was saved (or whose save failed after a complete flow):
 * everyone else goes to /booking. `?error=` carries a code, never text to show.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const page = successPageFor(await readDraft(db(), request), new URL(request.url).searchParams.get("error"));
  if (!page.show) throw redirect("/booking", { headers: { "Cache-Control": "no-store" } });
  return data({ calendlyUrl: env().CALENDLY_URL, saveError: page.error }, { headers: { "Cache-Control": "private, no-store" } });
}

const STEPS = [
  { icon: Mail, title: "Check your email", text: "A confirmation with a summary of your answers is on its way to your inbox." },
  { icon: CalendarCheck, title: "Add it to your calendar", text: "Save the invitation: you will get reminders 24 hours and 1 hour before the call." },
  { icon: NotebookPen, title: "Prepare for the call", text: "Gather a few websites you like, your brand assets and any questions about scope or timing." },
];

export default function BookingSuccess() {
  const { calendlyUrl, saveError } = useLoaderData<typeof loader>();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    // No celebration when the booking could not be saved.
    if (saveError || window.matchMedia("(prefers-reduced-motion: reduce)").matches || !canvas.current) return;
    let cancelled = false;
    const el = canvas.current;
    import("canvas-confetti").then(({ default: confetti }) => {
      if (cancelled) return;
      const fire = confetti.create(el, { resize: true, disableForReducedMotion: true });
      void fire({ particleCount: 120, spread: 75, origin: { y: 0.3 }, colors: ["#b4421a", "#047857", "#161513", "#f6d5c4"] });
    });
    return () => {
      cancelled = true;
    };
  }, [saveError]);
  return (
    <section className="container-page max-w-3xl pb-8 pt-16 text-center sm:pt-24" aria-labelledby="success-title">
      <canvas ref={canvas} aria-hidden="true" className="pointer-events-none fixed inset-0 z-50 h-full w-full" />
      {saveError ? (
        <p role="alert" className="mb-8 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-left text-sm text-danger">
          {saveError}
          <span className="mt-1 block">
            Reach us at{" "}
            <a href={`mailto:${site.contactEmail}`} className="font-semibold underline underline-offset-4">
              {site.contactEmail}
            </a>
            .
          </span>
        </p>
      ) : null}
      <p className="eyebrow">Booking received</p>
      <h1 id="success-title" className="mt-4 text-5xl sm:text-7xl">You&apos;re all set!</h1>
      <p className="mx-auto mt-5 max-w-xl text-lg text-ink-muted">Thanks for booking a free consultation. Here is what happens next.</p>
      <ol className="mt-12 grid gap-5 text-left sm:grid-cols-3">
        {STEPS.map((s, i) => (
          <li key={s.title} className="card p-6">
            <s.icon aria-hidden="true" className="h-6 w-6 text-accent" />
            <p className="mt-4 text-xs font-semibold uppercase tracking-wider text-ink-muted">Step {i + 1}</p>
            <h2 className="mt-1 text-xl">{s.title}</h2>
            <p className="mt-2 text-sm leading-relaxed text-ink-soft">{s.text}</p>
          </li>
        ))}
      </ol>
      <p className="mt-10 text-sm text-ink-muted">
        Haven&apos;t picked a time yet?{" "}
        <a href={calendlyUrl} className="link-underline font-semibold text-ink" target="_blank" rel="noopener noreferrer">
          Open the scheduling page
        </a>
        .
      </p>
      <Link to="/" className="btn-dark mt-8 px-6 py-3">
        Back to homepage
      </Link>
    </section>
  );
}
