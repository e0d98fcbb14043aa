import { data, redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CalendarCheck, CalendarPlus, Mail, NotebookPen, Video } from "lucide-react";
import { useEffect, useRef } from "react";
import { useStudio } from "~/lib/use-studio";
import { seo } from "~/lib/seo";
import { readDraft } from "../../server/http/draft-cookie.server";
import { successCallFor, successPageFor, type SuccessCall } from "../../server/booking/success.server";
import { currentStudio } from "../../server/studio/current.server";
import { db } from "../../server/db.server";
import { env } from "../../server/env.server";

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "You're all set!",
    description: "Your consultation request has been received.",
    path: "/booking/success",
    noindex: true,
  });

/** Rendered for one visitor's cookie: never stored by a browser or a shared cache. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * Only for a visitor whose booking was saved (or whose save failed after a complete flow):
 * everyone else goes to /booking. `?error=` carries a code, never text to show.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const draft = await readDraft(db(), request);
  const page = successPageFor(draft, new URL(request.url).searchParams.get("error"));
  if (!page.show) throw redirect("/booking", { headers: { "Cache-Control": "no-store" } });
  const [call, studio] = await Promise.all([successCallFor(db(), draft), currentStudio()]);
  return data(
    { calendlyUrl: studio.identity.calendarUrl || env().CALENDLY_URL, saveError: page.error, call },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The three next steps; the calendar step says only what is true of this booking's call (decision 014). */
function stepsFor(call: SuccessCall) {
  const emailed = call.state === "scheduled" ? call.reminders : [];
  const reminders =
    emailed.length === 2
      ? ", and we'll email you a reminder at those times too"
      : emailed.length
        ? `, and we'll email you a reminder ${emailed[0]} before it`
        : "";
  return [
    {
      icon: Mail,
      title: "Check your email",
      text:
        call.state === "scheduled"
          ? "A confirmation with your call's time, the calendar invitation and a summary of your answers is on its way to your inbox."
          : "A confirmation with a summary of your answers is on its way to your inbox.",
    },
    {
      icon: CalendarCheck,
      title: "Add it to your calendar",
      text:
        call.state === "scheduled"
          ? `The calendar file has alerts 24 hours and 1 hour before the call${reminders}.`
          : "Calendly's confirmation email has a link to add the call to your calendar.",
    },
    {
      icon: NotebookPen,
      title: "Prepare for the call",
      text: "Gather a few websites you like, your brand assets and any questions about scope or timing.",
    },
  ];
}

export default function BookingSuccess() {
  const site = useStudio();
  const { calendlyUrl, saveError, call } = useLoaderData<typeof loader>();
  const steps = stepsFor(call);
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    // No celebration when the booking could not be saved.
    if (saveError || window.matchMedia("(prefers-reduced-motion: reduce)").matches || !canvas.current) return;
    let cancelled = false;
    const el = canvas.current;
    import("canvas-confetti").then(({ default: confetti }) => {
      if (cancelled) return;
      const fire = confetti.create(el, { resize: true, disableForReducedMotion: true });
      void fire({
        particleCount: 120,
        spread: 75,
        origin: { y: 0.3 },
        colors: ["#b4421a", "#047857", "#161513", "#f6d5c4"],
      });
    });
    return () => {
      cancelled = true;
    };
  }, [saveError]);
  return (
    <section className="container-page max-w-3xl pb-8 pt-16 text-center sm:pt-24" aria-labelledby="success-title">
      <canvas ref={canvas} aria-hidden="true" className="pointer-events-none fixed inset-0 z-50 h-full w-full" />
      {saveError ? (
        <p
          role="alert"
          className="mb-8 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-left text-sm text-danger"
        >
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
      <h1 id="success-title" className="mt-4 text-5xl sm:text-7xl">
        You&apos;re all set!
      </h1>
      <p className="mx-auto mt-5 max-w-xl text-lg text-ink-muted">
        Thanks for booking a free consultation. Here is what happens next.
      </p>
      {saveError ? null : <CallCard call={call} />}
      <ol className="mt-12 grid gap-5 text-left sm:grid-cols-3">
        {steps.map((s, i) => (
          <li key={s.title} className="card p-6">
            <s.icon aria-hidden="true" className="h-6 w-6 text-accent" />
            <p className="mt-4 text-xs font-semibold uppercase tracking-wider text-ink-muted">Step {i + 1}</p>
            <h2 className="mt-1 text-xl">{s.title}</h2>
            <p className="mt-2 text-sm leading-relaxed text-ink-soft">{s.text}</p>
          </li>
        ))}
      </ol>
      {call.state === "scheduled" ? null : (
        <p className="mt-10 text-sm text-ink-muted">
          Haven&apos;t picked a time yet?{" "}
          <a
            href={calendlyUrl}
            className="link-underline font-semibold text-ink"
            target="_blank"
            rel="noopener noreferrer"
          >
            Open the scheduling page
          </a>
          .
        </p>
      )}
      <Link to="/" className="btn-dark mt-8 px-6 py-3">
        Back to homepage
      </Link>
    </section>
  );
}

/** The call: its time in the visitor's zone with what they can do, or honestly what is not known. */
function CallCard({ call }: { call: SuccessCall }) {
  if (call.state === "scheduled") {
    return (
      <section aria-labelledby="call-title" className="card mx-auto mt-10 max-w-xl p-6 text-left sm:p-8">
        <h2 id="call-title" className="font-sans text-xs font-semibold uppercase tracking-wider text-ink-muted">
          Your call
        </h2>
        <p className="mt-3 font-display text-3xl text-ink">
          <time dateTime={call.startAt}>{call.date}</time>
        </p>
        <p className="mt-1 text-xl text-ink">{call.time}</p>
        <p className="mt-2 text-sm text-ink-muted">
          Times are in {call.zoneName === call.zone ? call.zone : `${call.zoneName} (${call.zone})`}, the time zone you
          picked the call in.
        </p>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <a href={call.icsUrl} download className="btn-primary px-5 py-2.5">
            <CalendarPlus aria-hidden="true" className="h-4 w-4" /> Add to calendar (.ics)
          </a>
          {call.joinUrl ? (
            <a href={call.joinUrl} target="_blank" rel="noopener noreferrer" className="btn-ghost px-5 py-2.5">
              <Video aria-hidden="true" className="h-4 w-4" /> Join link
            </a>
          ) : null}
        </div>
        {call.rescheduleUrl || call.cancelUrl ? (
          <p className="mt-5 text-sm text-ink-muted">
            Need another time?{" "}
            {call.rescheduleUrl ? (
              <a
                href={call.rescheduleUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="link-underline font-semibold text-ink"
              >
                Reschedule
              </a>
            ) : null}
            {call.rescheduleUrl && call.cancelUrl ? " or " : null}
            {call.cancelUrl ? (
              <a
                href={call.cancelUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="link-underline font-semibold text-ink"
              >
                {call.rescheduleUrl ? "cancel" : "Cancel"}
              </a>
            ) : null}
            .
          </p>
        ) : null}
      </section>
    );
  }
  const message =
    call.state === "confirming"
      ? "Your call is booked in the calendar, and we are still confirming its time. Calendly's confirmation email has the time, with links to add it to your calendar, reschedule or cancel."
      : call.state === "cancelled"
        ? "This call was cancelled in the calendar. Want to talk after all? Pick a new time on the scheduling page (link below)."
        : call.state === "rescheduled"
          ? "This call is being moved to a new time. Calendly's email has the new time."
          : "We don't know your call's time yet. If you picked a time in the calendar, Calendly's confirmation email has it, with links to add it to your calendar, reschedule or cancel.";
  return (
    <section aria-labelledby="call-title" className="card mx-auto mt-10 max-w-xl p-6 text-left">
      <h2 id="call-title" className="font-sans text-xs font-semibold uppercase tracking-wider text-ink-muted">
        Your call
      </h2>
      <p className="mt-3 text-sm leading-relaxed text-ink-soft">{message}</p>
      {call.state === "confirming" ? (
        <p className="mt-3 text-sm">
          <a href="/booking/success" className="link-underline font-semibold text-ink">
            Check again
          </a>
        </p>
      ) : null}
    </section>
  );
}
