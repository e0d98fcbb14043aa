/**
 * Reading a calendar feed over HTTP (issue 43.3, 43.9): the secret iCal address of the owner's
 * calendar, asked for again with its ETag and Last-Modified (a feed that did not change answers 304
 * and costs nothing), over http(s) only, at most 10 MB and 10 s. Each refusal is a `FeedError`
 * whose message names the problem for the console, and the caller keeps the busy times it had.
 */
import { feedAddress } from "#domain/calendar-sources";

export { MAX_FEED_URL } from "#domain/calendar-sources";

export const FEED_MAX_BYTES = 10 * 1024 * 1024;
export const FEED_TIMEOUT_MS = 10_000;

/** A feed that could not be read, said so for the owner. */
export class FeedError extends Error {}

/** What a conditional request sends back: the validators of the copy held. */
export type FeedValidators = { etag: string | null; lastModified: string | null };

export type FeedAnswer =
  { changed: false } | { changed: true; text: string; etag: string | null; lastModified: string | null };

/** The feed's address checked by the domain's rule (`feedAddress`): the URL, or a FeedError. */
export function feedUrl(address: string): URL {
  const checked = feedAddress(address);
  if ("error" in checked) throw new FeedError(checked.error);
  return checked.url;
}

/**
 * The feed's text, or `{ changed: false }` when it answered 304 to the validators held. Reads the
 * body as it arrives and stops past `maxBytes`; gives up after `timeoutMs` in all.
 */
export async function fetchFeed(
  address: string,
  held: FeedValidators,
  { maxBytes = FEED_MAX_BYTES, timeoutMs = FEED_TIMEOUT_MS }: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<FeedAnswer> {
  const url = feedUrl(address);
  const headers: Record<string, string> = {
    accept: "text/calendar, text/plain;q=0.5",
    "user-agent": "studio-calendar",
  };
  if (held.etag) headers["if-none-match"] = held.etag;
  if (held.lastModified) headers["if-modified-since"] = held.lastModified;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const seconds = `${timeoutMs >= 1000 ? Math.round(timeoutMs / 1000) : timeoutMs / 1000} s`;
  try {
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: controller.signal, redirect: "follow" });
    } catch {
      throw new FeedError(
        controller.signal.aborted
          ? `The feed did not answer within ${seconds}`
          : `The feed could not be reached (${url.host})`,
      );
    }
    if (res.status === 304) {
      await res.body?.cancel();
      return { changed: false };
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new FeedError(
        `The feed answered ${res.status}${res.status === 404 ? " (not found: is the address current?)" : ""}`,
      );
    }
    const type = (res.headers.get("content-type") ?? "").toLowerCase();
    if (type.includes("text/html")) {
      await res.body?.cancel();
      throw new FeedError("The feed answered with a web page, not a calendar (copy the secret address in iCal format)");
    }
    const declared = Number(res.headers.get("content-length") ?? 0);
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw new FeedError(`The feed is larger than ${Math.round(maxBytes / 1048576)} MB`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      const reader = res.body?.getReader();
      for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
        const chunk = read.value;
        size += chunk.byteLength;
        if (size > maxBytes) {
          await reader?.cancel();
          throw new FeedError(`The feed is larger than ${Math.round(maxBytes / 1048576)} MB`);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof FeedError) throw error;
      throw new FeedError(
        controller.signal.aborted ? `The feed did not answer within ${seconds}` : "The feed's answer broke off",
      );
    }
    const text = Buffer.concat(chunks).toString("utf8");
    if (/^\s*</.test(text))
      throw new FeedError("The feed answered with a web page, not a calendar (copy the secret address in iCal format)");
    return { changed: true, text, etag: res.headers.get("etag"), lastModified: res.headers.get("last-modified") };
  } finally {
    clearTimeout(timer);
  }
}
