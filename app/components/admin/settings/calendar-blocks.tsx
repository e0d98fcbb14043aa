import { useNavigation } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import type { CalendarActionData } from "../../../../server/http/calendar-settings.server";

/** What Settings → Calendar's blocks share (CalendarSources.tsx, CalendarFeedAddress.tsx). */

/** Where a post without JavaScript comes back to: this block, not the top of the page. */
export const ACTION = "/admin/settings?section=calendar";

/** Whether the page has hydrated (the root marks <html data-hydrated> once it has): false while rendering on the server. */
export const isHydrated = () => typeof document !== "undefined" && document.documentElement.dataset.hydrated === "true";

export function useHydrated() {
  const [hydrated, setHydrated] = useState(isHydrated);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The intent being posted now, if it is one of these forms'. */
export function usePosting() {
  const navigation = useNavigation();
  const intent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  return typeof intent === "string" ? intent : null;
}

/** A time as the studio reads it: in its zone, named. */
export function when(iso: string, timeZone: string) {
  const date = new Date(iso);
  let text: string;
  try {
    text = date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone });
  } catch {
    return date.toISOString();
  }
  return `${text} ${timeZone === "UTC" ? "UTC" : `(${timeZone.replaceAll("_", " ")})`}`;
}

/**
 * The answer of the last post, written where it happened when the page came back without
 * JavaScript (with it, the toast says it).
 */
export function Answer({ result }: { result?: CalendarActionData }) {
  const hydrated = useHydrated();
  if (!result || hydrated) return null;
  return (
    <p
      role={result.ok ? "status" : "alert"}
      className={`rounded-field border px-4 py-3 text-sm ${
        result.ok ? "border-shop/30 bg-shop-soft text-shop-ink" : "border-danger/30 bg-danger-soft text-danger"
      }`}
    >
      {result.message}
    </p>
  );
}

/** One of this part's blocks: a card with its heading and a line under it. */
export function Block({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: string;
  lead: ReactNode;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 card p-5 sm:p-6">
      <h3 id={`${id}-title`} className="font-display text-2xl">
        {title}
      </h3>
      <p className="mt-1 text-sm text-ink-muted">{lead}</p>
      <div className="mt-5 grid gap-5">{children}</div>
    </section>
  );
}
