import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { AlertTriangle, CalendarDays, RefreshCw, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import type { z } from "zod";
import {
  calDavSourceSchema,
  calendarSourceSchema,
  MAX_CALDAV_PASSWORD,
  MAX_CALDAV_USERNAME,
  MAX_FEED_URL,
  MAX_SOURCE_LABEL,
} from "#domain/calendar-sources";
import type { CalendarActionData } from "../../../../server/http/calendar-settings.server";
import type { SourceView } from "../../../../server/calendar/sources.server";
import { TextInput } from "../form/fields";
import { ACTION, Answer, Block, usePosting, when } from "./calendar-blocks";

/**
 * Settings → Calendar, below the section's form (issue 43.3, 43.8): the owner's calendars (secret
 * iCal addresses and CalDAV calendars), whose busy times the built-in calendar keeps free, and the
 * address of the owner's own feed of booked calls. Each button is a small form posting to the Settings action with `section=calendar` and
 * its intent, so everything works without JavaScript (the page comes back at this block, the
 * answer written in it); with JavaScript the answer is a toast and the button says it is busy.
 */

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

/**
 * One "add" form: its heading, the fields `children` draws from conform's, the form's own message
 * and the button; posted to the Settings action with its intent, back at its heading without
 * JavaScript. Each form is checked in the browser by the schema the server reads it with.
 */
function AddForm<S extends typeof calendarSourceSchema | typeof calDavSourceSchema>({
  intent,
  id,
  title,
  schema,
  button,
  result,
  children,
}: {
  intent: "add-source" | "add-caldav";
  id: string;
  title: string;
  schema: S;
  button: string;
  result?: CalendarActionData;
  children: (fields: ReturnType<typeof useForm<z.input<S>>>[1]) => ReactNode;
}) {
  const posting = usePosting();
  const [form, fields] = useForm<z.input<S>>({
    id: `calendar-${intent}`,
    lastResult: result?.intent === intent ? result.add : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema, disableAutoCoercion: true }),
  });
  return (
    <Form
      method="post"
      action={`${ACTION}#${id}`}
      preventScrollReset
      {...getFormProps(form)}
      className="grid gap-4 border-t border-line pt-5"
      aria-labelledby={id}
    >
      <h4 id={id} className="scroll-mt-24 font-semibold">
        {title}
      </h4>
      <input type="hidden" name="section" value="calendar" />
      {children(fields)}
      {form.errors?.length ? (
        <p id={form.errorId} className="field-error mt-0" role="alert">
          {form.errors[0]}
        </p>
      ) : null}
      <div>
        <button
          type="submit"
          name="intent"
          value={intent}
          className="btn-dark"
          disabled={posting !== null}
          aria-busy={posting === intent}
        >
          {posting === intent ? "Adding and reading…" : button}
        </button>
      </div>
    </Form>
  );
}

/** "Add calendar": a name and the secret iCal address. */
function AddSource({ result }: { result?: CalendarActionData }) {
  return (
    <AddForm
      intent="add-source"
      id="add-calendar"
      title="Add a calendar"
      schema={calendarSourceSchema}
      button="Add calendar"
      result={result}
    >
      {(fields) => (
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
      )}
    </AddForm>
  );
}

/**
 * "Add a CalDAV calendar": a name, the calendar's address, the account's user name and an app
 * password. The password is never sent back: after a refusal it is typed again, the rest as it was.
 */
function AddCalDavSource({ result }: { result?: CalendarActionData }) {
  return (
    <AddForm
      intent="add-caldav"
      id="add-caldav"
      title="Add a CalDAV calendar"
      schema={calDavSourceSchema}
      button="Add CalDAV calendar"
      result={result}
    >
      {(fields) => (
        <>
          <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
            <TextInput field={fields.label} label="Name" placeholder="e.g. Personal" maxLength={MAX_SOURCE_LABEL} />
            <TextInput
              field={fields.url}
              label="Calendar address"
              type="url"
              inputMode="url"
              placeholder="https://caldav.fastmail.com/dav/calendars/user/you@example.com/Default/"
              maxLength={MAX_FEED_URL}
              hint="The calendar's CalDAV address as your provider shows it (iCloud, Fastmail, Nextcloud…). Your account's address works too: every calendar with events in it is read."
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextInput field={fields.username} label="User name" maxLength={MAX_CALDAV_USERNAME} autoComplete="off" />
            <TextInput
              field={fields.password}
              label="App password"
              type="password"
              autoComplete="new-password"
              maxLength={MAX_CALDAV_PASSWORD}
              hint="Make an app password for this at your provider. It is kept on this server (in its data folder and backups) and never shown again."
            />
          </div>
        </>
      )}
    </AddForm>
  );
}

/** "Your calendars": the sources, each with its state and actions, then the two ways to add one. */
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
  // A refused "Add a calendar" or "Add a CalDAV calendar" says why at its fields.
  const refusedAtFields =
    (result?.intent === "add-source" || result?.intent === "add-caldav") &&
    Object.values(result.add?.error ?? {}).some((e) => e?.length);
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
          No calendars yet. Add the secret iCal address of your Google, iCloud or Outlook calendar, or a CalDAV calendar
          with an app password, so clients are only offered times you are free.
        </p>
      ) : (
        <ul className="divide-y divide-line" aria-label="Your calendars">
          {sources.map((s) => (
            <SourceRow key={s.id} source={s} timeZone={timeZone} />
          ))}
        </ul>
      )}
      <AddSource result={result} />
      <AddCalDavSource result={result} />
    </Block>
  );
}
