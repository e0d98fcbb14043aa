/**
 * Reading a CalDAV calendar (issue 43.3): the events of a time window, as the iCalendar objects the
 * server keeps, for `busyFromIcs`. The address is most often the calendar's own collection (what
 * iCloud, Fastmail, Nextcloud and Radicale show); an account's address (a principal, the calendar
 * home or the server's root, `/.well-known/caldav` included) is followed to its calendars, and
 * every one of them that holds events and counts for free/busy is read (at most MAX_CALENDARS).
 *
 * The requests are tsdav's (a PROPFIND for the collection, a calendar-query REPORT with a
 * time-range filter for its objects; loaded at the first read, as a start does not need it:
 * decision 035) through one guarded `fetch`: Basic authentication with the
 * user name and app password, at most 10 MB in all and 10 s in all, like the feeds
 * (`feed-fetch.server.ts`). Each refusal is a `FeedError` in the owner's words, and the caller keeps
 * the busy times it had.
 *
 * An unchanged calendar costs one PROPFIND: the collections' ctag (or sync-token) and the caller's
 * `context` (the day, the window, the zone) make a version; when it is the one held, nothing is read.
 */
import crypto from "node:crypto";
import type { DAVResponse } from "tsdav";
import { feedAddress } from "#domain/calendar-sources";
import { FEED_MAX_BYTES, FEED_TIMEOUT_MS, FeedError } from "./feed-fetch.server";
import type { Interval } from "./slots.server";

/** Calendars read of one account at most. */
export const MAX_CALENDARS = 20;

export const CALDAV_REFUSED = "The CalDAV server refused the user name or app password (401)";

export type CalDavAccount = { url: string; username: string; password: string };

export type CalDavAnswer =
  | { changed: false }
  | {
      changed: true;
      /** One VCALENDAR per object, as the server keeps it. */
      objects: string[];
      /** What to hold for the next read: null when the server gives no ctag or sync-token. */
      version: string | null;
    };

/** An address that answers, but not as a CalDAV calendar or account. */
class NotCalDav extends FeedError {}

/** A CalDAV collection found at the address, or under it. */
type Collection = { url: string; tag: string | null };

/** What the guarded fetch learnt of the last answer: where it came from, its status and type. */
type LastAnswer = { url: string; status: number; type: string };

/** The props asked of an address: what it is, its version, and where an account's calendars are. */
const COLLECTION_PROPS = {
  "d:resourcetype": {},
  "d:displayname": {},
  "cs:getctag": {},
  "d:sync-token": {},
  "c:supported-calendar-component-set": {},
  "c:schedule-calendar-transp": {},
  "d:current-user-principal": {},
  "c:calendar-home-set": {},
};

const iCalUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/** An href of a DAV property (a string, or the first of several), or null. */
function hrefOf(prop: unknown): string | null {
  const href = (prop as { href?: unknown } | undefined)?.href;
  const first: unknown = Array.isArray(href) ? href[0] : href;
  if (typeof first === "string" && first.trim()) return first.trim();
  const text =
    (first as { _text?: unknown; _cdata?: unknown } | undefined)?._text ?? (first as { _cdata?: unknown })?._cdata;
  return typeof text === "string" && text.trim() ? text.trim() : null;
}

/** The names of a supported-calendar-component-set's components (none: the server did not say). */
function componentsOf(set: unknown): string[] {
  const comp = (set as { comp?: unknown } | undefined)?.comp;
  const list = Array.isArray(comp) ? comp : comp ? [comp] : [];
  return list.flatMap((c) => {
    const name = (c as { _attributes?: { name?: unknown } } | undefined)?._attributes?.name;
    return typeof name === "string" ? [name.toUpperCase()] : [];
  });
}

const resourceTypes = (r: DAVResponse) =>
  Object.keys((r.props?.resourcetype as Record<string, unknown> | undefined) ?? {});

/** A calendar that holds events (or does not say what it holds) and counts for free/busy. */
function isEventCalendar(r: DAVResponse): boolean {
  if (!r.ok || !resourceTypes(r).includes("calendar")) return false;
  const components = componentsOf(r.props?.supportedCalendarComponentSet);
  if (components.length > 0 && !components.includes("VEVENT")) return false;
  // RFC 6638: a calendar the owner marked as not affecting their availability.
  const transp = r.props?.scheduleCalendarTransp as Record<string, unknown> | undefined;
  return !(transp && "transparent" in transp);
}

/** A collection's version: its ctag, else its sync-token. */
function tagOf(r: DAVResponse): string | null {
  const tag: unknown = r.props?.getctag ?? r.props?.syncToken;
  return typeof tag === "string" || typeof tag === "number" ? String(tag) : null;
}

/**
 * The calendar's objects whose events meet `window`, or `{ changed: false }` when the collections'
 * version and `context` are the `held` one. Throws a `FeedError` for anything that is not an
 * answer.
 */
export async function readCalDav(
  account: CalDavAccount,
  { window, held, context }: { window: Interval; held: string | null; context: string },
  { maxBytes = FEED_MAX_BYTES, timeoutMs = FEED_TIMEOUT_MS }: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<CalDavAnswer> {
  const checked = feedAddress(account.url, "caldav");
  if ("error" in checked) throw new FeedError(checked.error);
  const address = checked.url;
  const { calendarQuery, propfind } = await import("tsdav");
  const seconds = `${timeoutMs >= 1000 ? Math.round(timeoutMs / 1000) : timeoutMs / 1000} s`;
  const tooSlow = () => new FeedError(`The CalDAV server did not answer within ${seconds}`);
  const tooLarge = () => new FeedError(`The calendar is larger than ${Math.round(maxBytes / 1048576)} MB`);
  const authorization = `Basic ${Buffer.from(`${account.username}:${account.password}`, "utf8").toString("base64")}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let received = 0;
  let last: LastAnswer = { url: address.href, status: 0, type: "" };

  /**
   * tsdav's fetch: the credentials, the deadline and the size limit of the whole read. A refusal of
   * the credentials is final; any other status is for the caller to read (`last`).
   */
  const guarded: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", authorization);
    headers.set("user-agent", "studio-calendar");
    const target = String(input instanceof Request ? input.url : input);
    let res: Response;
    try {
      // Redirects are followed (a well-known address, a moved account); fetch drops the
      // credentials when one leads to another origin.
      res = await fetch(target, { ...init, headers, signal: controller.signal, redirect: "follow" });
    } catch {
      throw controller.signal.aborted
        ? tooSlow()
        : new FeedError(`The CalDAV server could not be reached (${address.host})`);
    }
    last = { url: res.url || target, status: res.status, type: (res.headers.get("content-type") ?? "").toLowerCase() };
    if (res.status === 401) {
      await res.body?.cancel();
      throw new FeedError(CALDAV_REFUSED);
    }
    if (Number(res.headers.get("content-length") ?? 0) > maxBytes - received) {
      await res.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    try {
      const reader = res.body?.getReader();
      for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
        received += read.value.byteLength;
        if (received > maxBytes) {
          await reader?.cancel();
          throw tooLarge();
        }
        chunks.push(read.value);
      }
    } catch (error) {
      if (error instanceof FeedError) throw error;
      throw controller.signal.aborted ? tooSlow() : new FeedError("The CalDAV server's answer broke off");
    }
    const body = chunks.length ? Buffer.concat(chunks) : null;
    return new Response(res.status === 204 || res.status === 304 ? null : body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };

  /** What an answer that is not a multistatus means, said of the address asked. */
  const refusal = (answer: LastAnswer): FeedError => {
    const { status, type } = answer;
    if (status === 403) return new FeedError("The CalDAV server refused access to this calendar (403)");
    if (status === 404) return new NotCalDav("Not a CalDAV calendar (the address answered 404: is it current?)");
    if (status === 405 || status === 501)
      return new NotCalDav(`Not a CalDAV calendar (the address does not answer CalDAV's requests: ${status})`);
    if (status >= 400) return new FeedError(`The CalDAV server answered ${status}`);
    if (type.includes("text/html"))
      return new NotCalDav("Not a CalDAV calendar (the address answered with a web page)");
    return new NotCalDav("Not a CalDAV calendar (the address did not answer as a WebDAV server)");
  };

  /** PROPFIND: the responses of a multistatus, each with its absolute URL, or a FeedError. */
  const find = async (url: string, depth: "0" | "1") => {
    const responses = await propfind({ url, props: COLLECTION_PROPS, depth, fetch: guarded });
    const answer = last;
    // tsdav gives an answer that is not a multistatus as one response without props.
    if (responses.length === 0 || responses.every((r) => !r.props)) throw refusal(answer);
    if (answer.status >= 400) throw refusal(answer);
    return responses.flatMap((r) => {
      try {
        return [{ ...r, url: new URL(r.href ?? "", answer.url).href }];
      } catch {
        return [];
      }
    });
  };

  /** The event calendars at an address: itself, or an account's calendars found from it. */
  const calendarsAt = async (url: string, wellKnownTried = false): Promise<Collection[]> => {
    /** A server's root that is not the DAV service: its well-known address may lead there. */
    const viaWellKnown = async () => {
      try {
        return await calendarsAt(new URL("/.well-known/caldav", url).href, true);
      } catch (error) {
        if (error instanceof NotCalDav)
          throw new NotCalDav("Not a CalDAV calendar (no calendar account at this address)");
        throw error;
      }
    };
    const root = !wellKnownTried && isRoot(url);
    let self: (DAVResponse & { url: string }) | undefined;
    try {
      const responses = await find(url, "0");
      self = responses.find((r) => sameCollection(r.url, url)) ?? responses[0];
    } catch (error) {
      if (root && error instanceof NotCalDav) return viaWellKnown();
      throw error;
    }
    if (resourceTypes(self).includes("calendar")) {
      if (!isEventCalendar(self))
        throw new NotCalDav("Not a CalDAV calendar (this calendar holds no events, or is marked as free)");
      return [{ url: self.url, tag: tagOf(self) }];
    }
    let home = hrefOf(self.props?.calendarHomeSet);
    let from = self.url;
    const principal = hrefOf(self.props?.currentUserPrincipal);
    if (!home && principal) {
      const principalUrl = new URL(principal, self.url).href;
      const found = (await find(principalUrl, "0")).find((r) => sameCollection(r.url, principalUrl));
      home = found ? hrefOf(found.props?.calendarHomeSet) : null;
      from = found?.url ?? principalUrl;
    }
    if (!home) {
      if (root) return viaWellKnown();
      throw new NotCalDav("Not a CalDAV calendar (copy the calendar's own CalDAV address)");
    }
    const homeUrl = new URL(home, from).href;
    const calendars = (await find(homeUrl, "1"))
      .filter(isEventCalendar)
      .slice(0, MAX_CALENDARS)
      .map((r) => ({ url: r.url, tag: tagOf(r) }));
    if (calendars.length === 0) throw new NotCalDav("Not a CalDAV calendar (the account has no calendar with events)");
    return calendars;
  };

  try {
    const calendars = await calendarsAt(address.href);
    const version = calendars.every((c) => c.tag !== null)
      ? crypto
          .createHash("sha256")
          .update(JSON.stringify([context, calendars.map((c) => [c.url, c.tag])]))
          .digest("base64url")
      : null;
    if (version !== null && version === held) return { changed: false };
    const objects: string[] = [];
    for (const calendar of calendars) {
      let responses: DAVResponse[];
      try {
        responses = await calendarQuery({
          url: calendar.url,
          props: { "d:getetag": {}, "c:calendar-data": {} },
          filters: {
            "comp-filter": {
              _attributes: { name: "VCALENDAR" },
              "comp-filter": {
                _attributes: { name: "VEVENT" },
                "time-range": { _attributes: { start: iCalUtc(window.start), end: iCalUtc(window.end) } },
              },
            },
          },
          depth: "1",
          fetch: guarded,
        });
      } catch (error) {
        if (error instanceof FeedError) throw error;
        // tsdav's own words for a refused query: the status says it better.
        throw last.status >= 400 ? refusal(last) : new FeedError("The CalDAV server's answer could not be read");
      }
      if (last.status >= 400) throw refusal(last);
      for (const r of responses) {
        const data: unknown = r.props?.calendarData;
        const text =
          typeof data === "string"
            ? data
            : ((data as { _cdata?: unknown; _text?: unknown } | undefined)?._cdata ??
              (data as { _text?: unknown } | undefined)?._text);
        if (typeof text === "string" && text.trim()) objects.push(text);
      }
    }
    return { changed: true, objects, version };
  } catch (error) {
    if (error instanceof FeedError) throw error;
    if (controller.signal.aborted) throw tooSlow();
    throw new FeedError("The CalDAV server's answer could not be read");
  } finally {
    clearTimeout(timer);
  }
}

/** Whether two collection URLs name the same collection (a trailing slash aside). */
function sameCollection(a: string, b: string) {
  const strip = (u: string) => decodeURIComponent(new URL(u).pathname).replace(/\/+$/, "");
  try {
    return new URL(a).origin === new URL(b).origin && strip(a) === strip(b);
  } catch {
    return false;
  }
}

/** Whether an address is a server's root (where a well-known address may lead to the service). */
function isRoot(url: string) {
  return new URL(url).pathname.replace(/\/+$/, "") === "";
}
