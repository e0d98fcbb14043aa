import { z } from "zod";

/**
 * The owner's calendars in Settings → Calendar (issue 43.3): the rule for a feed's address (the
 * server reads the feed by it, `server/calendar/feed-fetch.server.ts`) and the "Add calendar"
 * form's schema built from it, so the browser refuses what the server would, in the same words.
 * Client-safe.
 */

export const MAX_FEED_URL = 2_000;
export const MAX_SOURCE_LABEL = 80;

/**
 * A feed's address checked: http(s) (webcal:// is how calendar apps link a feed, https
 * underneath), no user name or password in it, at most MAX_FEED_URL characters. The URL, or what
 * is wrong with it.
 */
export function feedAddress(address: string): { url: URL } | { error: string } {
  if (address.length > MAX_FEED_URL) return { error: `The feed's address is longer than ${MAX_FEED_URL} characters` };
  let url: URL;
  try {
    url = new URL(address.trim().replace(/^webcals?:\/\//i, "https://"));
  } catch {
    return { error: "The feed's address is not a web address" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { error: "The feed's address must start with https:// (or http://)" };
  if (url.username || url.password)
    return { error: "Put no user name or password in the feed's address (a CalDAV calendar has its own fields)" };
  return { url };
}

/** "Add calendar": a name (empty: "Calendar") and the calendar's secret iCal address. */
export const calendarSourceSchema = z.object({
  label: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine((v) => v.length <= MAX_SOURCE_LABEL, `Please keep the name under ${MAX_SOURCE_LABEL} characters`),
  url: z
    .string({ required_error: "Paste your calendar's secret iCal address" })
    .trim()
    .min(1, "Paste your calendar's secret iCal address")
    .superRefine((value, ctx) => {
      if (!value) return;
      const checked = feedAddress(value);
      if ("error" in checked) ctx.addIssue({ code: z.ZodIssueCode.custom, message: checked.error });
    }),
});
