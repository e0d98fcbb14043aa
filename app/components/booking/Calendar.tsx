import { useFetcher } from "@remix-run/react";
import { parseOrigin } from "#domain/attribution";
import { CalendarX2, ExternalLink, Loader2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { clearSavedForm } from "./useBookingForm";

/** How long the calendar may take to load before the page says it could not. */
export const CALENDAR_LOAD_TIMEOUT_MS = 12_000;
const CALENDAR_HEIGHT = 700;

/**
 * The embedded scheduling calendar (height 700px), prefilled with name, email and the custom
 * answers a1 company, a2 "<package> Package", a3 the goal. Only a `calendly.event_scheduled`
 * message from the calendar's own origin confirms the booking; it sends the event and invitee URIs
 * the message names, from which the server reads the call's time (decision 014).
 *
 * While the frame loads, a skeleton with a status covers the 700px area; when it has not loaded
 * after CALENDAR_LOAD_TIMEOUT_MS, a message says so and offers the scheduling page in a new tab.
 * That link (prefilled the same way) is always offered under the calendar too.
 */
export function Calendar({
  calendlyUrl,
  name,
  email,
  company,
  packageName,
  goal,
  attribution = "",
}: {
  calendlyUrl: string;
  name: string;
  email: string;
  company: string;
  packageName: string;
  goal: string;
  /** The visit's first-touch utm_* (the draft's origin), passed on as the calendar's own utm prefill. */
  attribution?: string;
}) {
  const fetcher = useFetcher<{ errors?: Record<string, string> }>();
  const refused = fetcher.state === "idle" ? fetcher.data?.errors?.form : undefined;
  const { src, pageUrl, origin } = useMemo(() => {
    try {
      const url = new URL(calendlyUrl);
      url.searchParams.set("name", name);
      url.searchParams.set("email", email);
      url.searchParams.set("a1", company);
      url.searchParams.set("a2", `${packageName} Package`);
      url.searchParams.set("a3", goal);
      const utm = parseOrigin(attribution);
      if (utm.utmSource) url.searchParams.set("utm_source", utm.utmSource);
      if (utm.utmMedium) url.searchParams.set("utm_medium", utm.utmMedium);
      if (utm.utmCampaign) url.searchParams.set("utm_campaign", utm.utmCampaign);
      const pageUrl = url.toString();
      url.searchParams.set("embed_domain", typeof window === "undefined" ? "" : window.location.host);
      url.searchParams.set("embed_type", "Inline");
      return { src: url.toString(), pageUrl, origin: url.origin };
    } catch {
      return { src: "", pageUrl: "", origin: "" };
    }
  }, [calendlyUrl, name, email, company, packageName, goal, attribution]);

  // Which frame address has loaded / has timed out (a new address starts loading again).
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const [timedOutSrc, setTimedOutSrc] = useState<string | null>(null);
  const loaded = loadedSrc === src;
  const timedOut = !loaded && timedOutSrc === src;
  useEffect(() => {
    if (!src || loaded) return;
    const timer = window.setTimeout(() => setTimedOutSrc(src), CALENDAR_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [src, loaded]);

  useEffect(() => {
    function onMessage(e: MessageEvent) {
      if (!origin || e.origin !== origin) return;
      const event = e.data && typeof e.data === "object" ? (e.data as { event?: unknown }).event : undefined;
      // Any of the widget's own messages (page height, event type viewed...) means it is showing.
      if (typeof event === "string" && event.startsWith("calendly.")) setLoadedSrc(src);
      if (event !== "calendly.event_scheduled") return;
      clearSavedForm();
      // The event and invitee it names are a hint: the server reads the call's time from Calendly.
      const { eventUri, inviteeUri } = scheduledUris(e.data);
      fetcher.submit({ intent: "confirm", eventUri, inviteeUri }, { method: "post", action: "/booking?step=6" });
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [origin, src, fetcher]);

  if (!src) return <p className="text-danger">The scheduling calendar is not configured.</p>;
  return (
    <div>
      {fetcher.state !== "idle" ? (
        <p role="status" className="mb-3 rounded-field bg-shop-soft px-4 py-3 text-sm font-medium text-shop-ink">
          Saving your booking...
        </p>
      ) : null}
      {refused ? (
        <p
          role="alert"
          className="mb-3 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
        >
          {refused}
        </p>
      ) : null}
      <div className="relative overflow-hidden rounded-card border border-line bg-white">
        <iframe
          title="Schedule your free consultation"
          src={src}
          width="100%"
          height={CALENDAR_HEIGHT}
          style={{ height: CALENDAR_HEIGHT, border: 0 }}
          className="block w-full"
          onLoad={() => setLoadedSrc(src)}
        />
        {timedOut ? <CalendarFailed pageUrl={pageUrl} /> : !loaded ? <CalendarLoading /> : null}
      </div>
      <p className="mt-3 text-sm text-ink-muted">
        Calendar not loading?{" "}
        <a href={pageUrl} target="_blank" rel="noopener noreferrer" className="link-underline font-semibold text-ink">
          Open the scheduling page in a new tab
        </a>
      </p>
    </div>
  );
}

/** `payload.event.uri` and `payload.invitee.uri` of a `calendly.event_scheduled` message ("" when absent). */
export function scheduledUris(data: unknown): { eventUri: string; inviteeUri: string } {
  const payload = data && typeof data === "object" ? (data as { payload?: unknown }).payload : undefined;
  const uriOf = (key: "event" | "invitee") => {
    const part = payload && typeof payload === "object" ? (payload as Record<string, unknown>)[key] : undefined;
    const uri = part && typeof part === "object" ? (part as { uri?: unknown }).uri : undefined;
    return typeof uri === "string" ? uri.slice(0, 300) : "";
  };
  return { eventUri: uriOf("event"), inviteeUri: uriOf("invitee") };
}

/** A quiet likeness of a month view over the frame's area while it loads. */
function CalendarLoading() {
  return (
    <div className="absolute inset-0 flex flex-col items-center bg-paper-raised px-6 pt-16 sm:pt-24">
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-ink-soft">
        <Loader2 aria-hidden="true" className="h-4 w-4 motion-safe:animate-spin" />
        Loading the calendar…
      </p>
      <div aria-hidden="true" className="mt-10 w-full max-w-sm motion-safe:animate-pulse">
        <div className="mx-auto h-4 w-40 rounded-full bg-paper-sunk" />
        <div className="mt-8 grid grid-cols-7 gap-3">
          {Array.from({ length: 35 }, (_, i) => (
            <div key={i} className="aspect-square rounded-full bg-paper-sunk" />
          ))}
        </div>
        <div className="mt-10 space-y-3">
          <div className="h-11 rounded-field bg-paper-sunk" />
          <div className="h-11 rounded-field bg-paper-sunk" />
        </div>
      </div>
    </div>
  );
}

/** Shown over the frame's area when it has not loaded in time. */
function CalendarFailed({ pageUrl }: { pageUrl: string }) {
  return (
    <div
      role="alert"
      className="absolute inset-0 flex flex-col items-center justify-center bg-paper-raised px-6 text-center"
    >
      <CalendarX2 aria-hidden="true" className="h-8 w-8 text-ink-muted" />
      <p className="mt-4 font-display text-2xl text-ink">The calendar could not load</p>
      <p className="mt-3 max-w-sm text-sm leading-relaxed text-ink-muted">
        A slow connection or a content blocker may be stopping it. Pick a time on the scheduling page instead, then come
        back here to confirm your booking.
      </p>
      <a href={pageUrl} target="_blank" rel="noopener noreferrer" className="btn-primary mt-6 px-6 py-3">
        Open the scheduling page in a new tab <ExternalLink aria-hidden="true" className="h-4 w-4" />
      </a>
    </div>
  );
}
