import { z } from "zod";

/**
 * The owner's calendars in Settings → Calendar (issue 43.3): the rule for a calendar's address (the
 * server reads a feed by it, `server/calendar/feed-fetch.server.ts`, and a CalDAV calendar,
 * `server/calendar/caldav.server.ts`) and the schemas of "Add a calendar" and "Add a CalDAV
 * calendar" built from it, so the browser refuses what the server would, in the same words.
 * Client-safe.
 */

export const MAX_FEED_URL = 2_000;
export const MAX_SOURCE_LABEL = 80;
/** A CalDAV account's user name and app password: longer than any provider's. */
export const MAX_CALDAV_USERNAME = 200;
export const MAX_CALDAV_PASSWORD = 200;

/**
 * A calendar's address checked: http(s) (webcal:// is how calendar apps link a feed, https
 * underneath), no user name or password in it, at most MAX_FEED_URL characters. The URL, or what
 * is wrong with it, said of a feed (`ics`) or of a CalDAV calendar (`caldav`): the same rule.
 */
export function feedAddress(address: string, kind: "ics" | "caldav" = "ics"): { url: URL } | { error: string } {
  const the = kind === "ics" ? "The feed's address" : "The calendar's address";
  if (address.length > MAX_FEED_URL) return { error: `${the} is longer than ${MAX_FEED_URL} characters` };
  let url: URL;
  try {
    url = new URL(address.trim().replace(/^webcals?:\/\//i, "https://"));
  } catch {
    return { error: `${the} is not a web address` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { error: `${the} must start with https:// (or http://)` };
  if (url.username || url.password)
    return {
      error:
        kind === "ics"
          ? "Put no user name or password in the feed's address (a CalDAV calendar has its own fields)"
          : "Put no user name or password in the calendar's address: they have their own fields",
    };
  return { url };
}

/** A schema's check of an address by `feedAddress`, in its words. */
const addressOf = (kind: "ics" | "caldav", missing: string) =>
  z
    .string({ required_error: missing })
    .trim()
    .min(1, missing)
    .superRefine((value, ctx) => {
      if (!value) return;
      const checked = feedAddress(value, kind);
      if ("error" in checked) ctx.addIssue({ code: z.ZodIssueCode.custom, message: checked.error });
    });

/** "Add calendar": a name (empty: "Calendar") and the calendar's secret iCal address. */
export const calendarSourceSchema = z.object({
  label: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine((v) => v.length <= MAX_SOURCE_LABEL, `Please keep the name under ${MAX_SOURCE_LABEL} characters`),
  url: addressOf("ics", "Paste your calendar's secret iCal address"),
});

/**
 * "Add a CalDAV calendar": a name (empty: "Calendar"), the calendar's address (its own collection,
 * or the account's: the server finds the calendars), the account's user name and an app password.
 * The password is only ever sent by the browser, never back to it.
 */
export const calDavSourceSchema = z.object({
  label: calendarSourceSchema.shape.label,
  url: addressOf("caldav", "Paste your calendar's CalDAV address"),
  username: z
    .string({ required_error: "Enter the user name of your calendar account" })
    .trim()
    .min(1, "Enter the user name of your calendar account")
    .max(MAX_CALDAV_USERNAME, `Please keep the user name under ${MAX_CALDAV_USERNAME} characters`)
    // Basic authentication sends "user:password": a colon would end the user name early.
    .refine((v) => !v.includes(":"), "A user name cannot contain “:”"),
  // Not trimmed: a password is what it is.
  password: z
    .string({ required_error: "Enter an app password for this calendar" })
    .min(1, "Enter an app password for this calendar")
    .max(MAX_CALDAV_PASSWORD, `Please keep the password under ${MAX_CALDAV_PASSWORD} characters`),
});
