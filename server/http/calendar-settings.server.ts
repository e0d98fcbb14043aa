import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { calDavSourceSchema, calendarSourceSchema } from "#domain/calendar-sources";
import { feedPath, feedSecret, newFeedSecret } from "../booking/owner-feed.server";
import {
  addCalDavSource,
  addFeedSource,
  listSources,
  removeSource,
  SourceFieldError,
  syncSource,
  type SourceView,
  type SyncOptions,
  type SyncResult,
} from "../calendar/sources.server";
import type { DB } from "../db.server";
import { DomainError } from "../errors";
import { getStudio } from "../studio/studio.server";
import { httpStatusOf } from "./domain-errors";

/**
 * Settings → Calendar's second half (issue 43.3, 43.8), the web side: the owner's calendars (their
 * feeds, each with when it was last read and its error) and the address of the owner's own feed of
 * calls, for the Settings loader; and the small forms below the section's form, each a plain POST
 * to the Settings action with `section=calendar` and an intent:
 *
 * - `add-source` (label, url): adds the feed and reads it at once;
 * - `add-caldav` (label, url, username, password): adds the CalDAV calendar and reads it at once;
 *   a server that refuses the user name or app password (401) is not added, and says so at the
 *   password's field;
 * - `check-source:<id>`: reads it again now;
 * - `remove-source:<id>`: removes it and its busy times;
 * - `new-feed-address`: a new secret for the owner's feed (the old address answers 404).
 *
 * The admin guard is the Settings action's. What happened is said in `CalendarActionData`'s message
 * (a toast with JavaScript, a line in the block without); "Add calendar"'s refusals come back at
 * their fields with what was typed (conform's reply), "Add a CalDAV calendar"'s without the
 * password: it is never sent back to the browser.
 */

export type CalendarSettingsData = { sources: SourceView[]; feedUrl: string };

/** What Settings → Calendar lists: the sources (hosts only, never their secret addresses) and the feed's address. */
export async function calendarSettingsData(db: DB, appUrl: string): Promise<CalendarSettingsData> {
  return { sources: await listSources(db), feedUrl: `${appUrl}${feedPath(await feedSecret(db))}` };
}

export type CalendarIntent =
  | { op: "add-source" | "add-caldav" }
  | { op: "new-feed-address" }
  | { op: "check-source" | "remove-source"; id: string };

/** The intent of one of the calendar forms, or null for any other (the section's own save). */
export function parseCalendarIntent(intent: string): CalendarIntent | null {
  if (intent === "add-source" || intent === "add-caldav" || intent === "new-feed-address") return { op: intent };
  const match = /^(check-source|remove-source):(.*)$/s.exec(intent);
  if (!match) return null;
  return { op: match[1] as "check-source" | "remove-source", id: match[2] };
}

/** What a calendar form's post did: said in a toast (and in the block without JavaScript). */
export type CalendarActionData = {
  intent: CalendarIntent["op"];
  /** A success, or something the owner should read (a refusal, a feed that could not be read). */
  ok: boolean;
  message: string;
  /**
   * "Add a calendar" and "Add a CalDAV calendar": conform's reply (the typed values, never the
   * password, and each field's message; reset after an add).
   */
  add?: SubmissionResult<string[]>;
};

const busyTimes = (n: number) => (n === 1 ? "1 busy time" : `${n} busy times`);

/** How the owner's calendars are read now: in the studio's zone and window, the owner's own replies known. */
async function syncOptions(db: DB, now: number, studioEmail: string): Promise<SyncOptions> {
  const { calendar, identity } = await getStudio(db, { studioEmail });
  return {
    now,
    timeZone: calendar.availability.timeZone,
    windowDays: calendar.availability.windowDays,
    ownerEmails: [identity.contactEmail, studioEmail],
  };
}

/** A read's result in the owner's words. */
const readResult = (r: SyncResult) => (r.ok ? `Read: ${busyTimes(r.busy)}` : `Could not be read: ${r.error}`);

/**
 * Runs a calendar form's intent: what to answer and its status (400 for a refused address, 404
 * for a calendar removed meanwhile). Database errors are thrown.
 */
export async function calendarSettingsAction(
  db: DB,
  form: FormData,
  intent: CalendarIntent,
  { now = Date.now(), studioEmail }: { now?: number; studioEmail: string },
): Promise<{ status: number; body: CalendarActionData }> {
  const answer = (ok: boolean, message: string, status = 200, add?: SubmissionResult<string[]>) => ({
    status,
    body: { intent: intent.op, ok, message, ...(add ? { add } : {}) },
  });
  /**
   * "Add a calendar" and "Add a CalDAV calendar": the source added and read at once; a refusal at
   * its field with what was typed (but `hideFields`); a server that refuses the user name or app
   * password (401) is not kept as a calendar that can never be read: the owner types the password
   * again, the rest of the form as it was.
   */
  async function addAndRead<Value>(
    submission: Submission<unknown, string[], Value>,
    add: (value: Value) => Promise<string>,
    hideFields: string[],
  ) {
    if (submission.status !== "success")
      return answer(
        false,
        "The calendar was not added: please correct the fields marked below.",
        400,
        submission.reply({ hideFields }),
      );
    let id: string;
    try {
      id = await add(submission.value);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      // A refused field at its field; a limit (20 calendars) above the form.
      const reply =
        error instanceof SourceFieldError
          ? submission.reply({ fieldErrors: { [error.field]: [error.message] }, hideFields })
          : submission.reply({ formErrors: [error.message], hideFields });
      return answer(false, error.message, httpStatusOf(error), reply);
    }
    const read = await syncSource(db, id, await syncOptions(db, now, studioEmail));
    if (!read.ok && read.refused) {
      await removeSource(db, id);
      return answer(
        false,
        `The calendar was not added: ${read.error}`,
        400,
        submission.reply({ fieldErrors: { password: [read.error] }, hideFields }),
      );
    }
    const added = submission.reply({ resetForm: true });
    return read.ok
      ? answer(true, `Calendar added. ${readResult(read)}`, 200, added)
      : answer(false, `Calendar added, but it could not be read: ${read.error}`, 200, added);
  }

  try {
    switch (intent.op) {
      case "add-source": {
        const submission = parseWithZod(form, { schema: calendarSourceSchema, disableAutoCoercion: true });
        return await addAndRead(submission, (value) => addFeedSource(db, value), []);
      }
      case "add-caldav": {
        const submission = parseWithZod(form, { schema: calDavSourceSchema, disableAutoCoercion: true });
        // What was typed comes back with a refusal, but never the password.
        return await addAndRead(submission, (value) => addCalDavSource(db, value), ["password"]);
      }
      case "check-source": {
        const read = await syncSource(db, intent.id, await syncOptions(db, now, studioEmail));
        return answer(read.ok, readResult(read));
      }
      case "remove-source":
        await removeSource(db, intent.id);
        return answer(true, "Calendar removed");
      case "new-feed-address":
        await newFeedSecret(db);
        return answer(true, "New address made: the old one no longer works");
    }
  } catch (error) {
    if (error instanceof DomainError) return answer(false, error.message, httpStatusOf(error));
    throw error;
  }
}
