import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { AlertTriangle, CalendarDays, Copy, RefreshCw, Trash2 } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { z } from "zod";
import { calendarSourceSchema, MAX_FEED_URL, MAX_SOURCE_LABEL } from "#domain/calendar-sources";
import { useToast } from "~/components/ui/Toast";
import type { CalendarActionData } from "../../../../server/http/calendar-settings.server";
import type { SourceView } from "../../../../server/calendar/sources.server";
import { TextInput } from "../form/fields";

/**
 * Settings → Calendar, below the section's form (issue 43.3, 43.8): the owner's calendars, whose
 * busy times the built-in calendar keeps free, and the address of the owner's own feed of booked
 * calls. Each button is a small form posting to the Settings action with `section=calendar` and
 * its intent, so everything works without JavaScript (the page comes back at this block, the
 * answer written in it); with JavaScript the answer is a toast and the button says it is busy.
 */

/** Where a post without JavaScript comes back to: this block, not the top of the page. */
const ACTION = "/admin/settings?section=calendar";

/** Whether the page has hydrated (the root marks <html data-hydrated> once it has): false while rendering on the server. */
const isHydrated = () => typeof document !== "undefined" && document.documentElement.dataset.hydrated === "true";

function useHydrated() {
  const [hydrated, setHydrated] = useState(isHydrated);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The intent being posted now, if it is one of these forms'. */
function usePosting() {
  const navigation = useNavigation();
  const intent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  return typeof intent === "string" ? intent : null;
}

/** A time as the studio reads it: in its zone, named. */
function when(iso: string, timeZone: string) {
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
function Answer({ result }: { result?: CalendarActionData }) {
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
function Block({ id, title, lead, children }: { id: string; title: string; lead: ReactNode; children: ReactNode }) {
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

/** One source: its name, kind and host, when it was last read, its error; "Check now" and "Remove". */
function SourceRow({ source, timeZone }: { source: SourceView; timeZone: string }) {
  const posting = usePosting();
  const checking = posting === `check-source:${source.id}`;
  const removing = posting === `remove-source:${source.id}`;
  const name = `“${source.label}”`;
  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start sm:gap-x-6">
      <div className="min-w-0">
        <p className="break-words font-semibold">{source.label}</p>
        <p className="text-sm text-ink-muted">
          {source.kind === "ics" ? "Calendar feed" : "CalDAV calendar"} ·{" "}
          <span className="break-all">{source.host || "unknown host"}</span>
        </p>
        <p className="mt-1 text-sm text-ink-soft">
          {source.syncedAt ? (
            <>
              Last read <time dateTime={source.syncedAt}>{when(source.syncedAt, timeZone)}</time> (
              {source.busyCount === 1 ? "1 busy time" : `${source.busyCount} busy times`})
            </>
          ) : (
            "Not read yet"
          )}
        </p>
        {source.error ? (
          <p
            role="status"
            className="mt-2 flex gap-2 rounded-field border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger"
          >
            <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            <span className="min-w-0 break-words">
              Could not be read since{" "}
              {source.errorAt ? (
                <time dateTime={source.errorAt}>{when(source.errorAt, timeZone)}</time>
              ) : (
                "its last read"
              )}
              : {source.error}.{" "}
              {source.syncedAt ? "Its last known busy times are still kept." : "No busy times are known from it yet."}
            </span>
          </p>
        ) : null}
      </div>
      <Form
        method="post"
        action={`${ACTION}#your-calendars`}
        preventScrollReset
        className="flex flex-wrap items-center gap-2"
      >
        <input type="hidden" name="section" value="calendar" />
        <button
          type="submit"
          name="intent"
          value={`check-source:${source.id}`}
          className="btn-ghost px-4 py-1.5"
          disabled={posting !== null}
          aria-busy={checking}
        >
          <RefreshCw aria-hidden="true" className={`h-4 w-4 ${checking ? "motion-safe:animate-spin" : ""}`} />
          {checking ? "Reading…" : "Check now"}
          <span className="sr-only"> {name}</span>
        </button>
        <button
          type="submit"
          name="intent"
          value={`remove-source:${source.id}`}
          className="btn-ghost px-4 py-1.5 text-danger"
          disabled={posting !== null}
          aria-busy={removing}
        >
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          {removing ? "Removing…" : "Remove"}
          <span className="sr-only"> {name}</span>
        </button>
      </Form>
    </li>
  );
}

/** "Add calendar": a name and the secret iCal address, checked as the server checks them. */
function AddSource({ result }: { result?: CalendarActionData }) {
  const posting = usePosting();
  const adding = posting === "add-source";
  const [form, fields] = useForm<z.input<typeof calendarSourceSchema>>({
    id: "calendar-source",
    lastResult: result?.intent === "add-source" ? result.add : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: calendarSourceSchema, disableAutoCoercion: true }),
  });
  return (
    <Form
      method="post"
      action={`${ACTION}#add-calendar`}
      preventScrollReset
      {...getFormProps(form)}
      className="grid gap-4 border-t border-line pt-5"
      aria-labelledby="add-calendar"
    >
      <h4 id="add-calendar" className="scroll-mt-24 font-semibold">
        Add a calendar
      </h4>
      <input type="hidden" name="section" value="calendar" />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
        <TextInput field={fields.label} label="Name" placeholder="e.g. Work" maxLength={MAX_SOURCE_LABEL} />
        <TextInput
          field={fields.url}
          label="Secret iCal address"
          type="url"
          inputMode="url"
          placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
          maxLength={MAX_FEED_URL}
          hint="In Google Calendar: Settings → your calendar → Integrate calendar → Secret address in iCal format. The address stays on this server; only its host is shown here."
        />
      </div>
      {form.errors?.length ? (
        <p id={form.errorId} className="field-error mt-0" role="alert">
          {form.errors[0]}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          name="intent"
          value="add-source"
          className="btn-dark"
          disabled={posting !== null}
          aria-busy={adding}
        >
          {adding ? "Adding and reading…" : "Add calendar"}
        </button>
      </div>
    </Form>
  );
}

/** "Your calendars": the sources, each with its state and actions, then "Add calendar". */
export function YourCalendars({
  sources,
  timeZone,
  builtin,
  result,
}: {
  sources: SourceView[];
  timeZone: string;
  builtin: boolean;
  result?: CalendarActionData;
}) {
  // A refused "Add calendar" says why at its fields.
  const refusedAtFields =
    result?.intent === "add-source" && Object.values(result.add?.error ?? {}).some((e) => e?.length);
  const answer = result && result.intent !== "new-feed-address" && !refusedAtFields;
  return (
    <Block
      id="your-calendars"
      title="Your calendars"
      lead={
        <>
          Your busy times in them are never offered to clients. They are read every 5 minutes, and only while clients
          book with the built-in calendar{builtin ? "" : " (now they book with Calendly)"}.
        </>
      }
    >
      {answer ? <Answer result={result} /> : null}
      {sources.length === 0 ? (
        <p className="flex gap-3 rounded-field border border-dashed border-line-strong p-4 text-sm text-ink-soft">
          <CalendarDays aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-ink-faint" />
          No calendars yet. Add the secret iCal address of your Google, iCloud or Outlook calendar so clients are only
          offered times you are free.
        </p>
      ) : (
        <ul className="divide-y divide-line" aria-label="Your calendars">
          {sources.map((s) => (
            <SourceRow key={s.id} source={s} timeZone={timeZone} />
          ))}
        </ul>
      )}
      <AddSource result={result} />
    </Block>
  );
}

/** "Your calls in your calendar app": the feed's address to copy, and "Make a new address". */
export function FeedAddress({ feedUrl, result }: { feedUrl: string; result?: CalendarActionData }) {
  const posting = usePosting();
  const making = posting === "new-feed-address";
  const hydrated = useHydrated();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(feedUrl);
      toast.success("Address copied");
    } catch {
      toast.error("Could not copy: the address is selected, copy it with your keyboard");
    }
  };
  return (
    <Block
      id="your-feed"
      title="Your calls in your calendar app"
      lead="Every booked call, cancelled ones marked so, in the calendar you use every day."
    >
      {result?.intent === "new-feed-address" ? <Answer result={result} /> : null}
      <div>
        <label htmlFor="calendar-feed-url" className="field-label">
          Your calls&rsquo; address
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={input}
            id="calendar-feed-url"
            type="text"
            readOnly
            value={feedUrl}
            onFocus={(e) => e.currentTarget.select()}
            spellCheck={false}
            aria-describedby="calendar-feed-url-hint"
            className="field-input min-w-0 flex-1 font-mono text-sm"
          />
          {hydrated ? (
            <button type="button" className="btn-ghost shrink-0 px-4" onClick={copy}>
              <Copy aria-hidden="true" className="h-4 w-4" /> Copy
            </button>
          ) : null}
        </div>
        <p id="calendar-feed-url-hint" className="mt-1.5 text-sm text-ink-muted">
          Subscribe to this address in Google Calendar, Apple Calendar or Outlook to see every booked call. Anyone with
          the address can see your calls: make a new one if it was shared.
        </p>
      </div>
      <Form method="post" action={`${ACTION}#your-feed`} preventScrollReset>
        <input type="hidden" name="section" value="calendar" />
        <button
          type="submit"
          name="intent"
          value="new-feed-address"
          className="btn-ghost px-4 py-1.5"
          disabled={posting !== null}
          aria-busy={making}
        >
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          {making ? "Making…" : "Make a new address"}
        </button>
      </Form>
    </Block>
  );
}
