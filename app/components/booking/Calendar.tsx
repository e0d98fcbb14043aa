import { useFetcher } from "@remix-run/react";
import { useEffect, useMemo } from "react";
import { clearSavedForm } from "./useBookingEnhancements";

/**
 * The embedded scheduling calendar (height 700px), prefilled with name, email and the custom
 * answers a1 company, a2 "<package> Package", a3 the goal. Only a `calendly.event_scheduled`
 * message from the calendar's own origin confirms the booking.
 */
export function Calendar({
  calendlyUrl,
  name,
  email,
  company,
  packageName,
  goal,
}: {
  calendlyUrl: string;
  name: string;
  email: string;
  company: string;
  packageName: string;
  goal: string;
}) {
  const fetcher = useFetcher<{ errors?: Record<string, string> }>();
  const refused = fetcher.state === "idle" ? fetcher.data?.errors?.form : undefined;
  const { src, origin } = useMemo(() => {
    try {
      const url = new URL(calendlyUrl);
      url.searchParams.set("embed_domain", typeof window === "undefined" ? "" : window.location.host);
      url.searchParams.set("embed_type", "Inline");
      url.searchParams.set("name", name);
      url.searchParams.set("email", email);
      url.searchParams.set("a1", company);
      url.searchParams.set("a2", `${packageName} Package`);
      url.searchParams.set("a3", goal);
      return { src: url.toString(), origin: url.origin };
    } catch {
      return { src: "", origin: "" };
    }
  }, [calendlyUrl, name, email, company, packageName, goal]);

  useEffect(() => {
    function onMessage(e: MessageEvent) {
      if (!origin || e.origin !== origin) return;
      const event = e.data && typeof e.data === "object" ? (e.data as { event?: unknown }).event : undefined;
      if (event !== "calendly.event_scheduled") return;
      clearSavedForm();
      fetcher.submit({ intent: "confirm" }, { method: "post", action: "/booking?step=6" });
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [origin, fetcher]);

  if (!src) return <p className="text-danger">The scheduling calendar is not configured.</p>;
  return (
    <div>
      {fetcher.state !== "idle" ? (
        <p role="status" className="mb-3 rounded-field bg-shop-soft px-4 py-3 text-sm font-medium text-shop-ink">
          Saving your booking...
        </p>
      ) : null}
      {refused ? (
        <p role="alert" className="mb-3 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
          {refused}
        </p>
      ) : null}
      <iframe
        title="Schedule your free consultation"
        src={src}
        width="100%"
        height="700"
        style={{ height: 700, border: 0 }}
        className="w-full rounded-card border border-line bg-white"
      />
    </div>
  );
}
