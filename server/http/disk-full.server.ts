import { AsyncLocalStorage } from "node:async_hooks";
import { isDiskFull } from "../storage/storage.server";
import { log, logRequestIdsFrom } from "../log.server";

/** What a visitor reads when the data disk is full (never the system's ENOSPC text). */
export const STORAGE_FULL_MESSAGE =
  "The studio's server has run out of storage space, so nothing was saved. Please try again in a few minutes.";

type Scope = { diskFull: boolean; reqId?: string; drop?: () => void };
// One scope for the process: the HTTP server opens it and Remix's handleError notes into it.
const scope = new AsyncLocalStorage<Scope>();
// Lines logged while a request is handled carry its id (server/log.server.ts).
logRequestIdsFrom(() => scope.getStore()?.reqId);

/**
 * Runs one request's handling and says whether any error on its way was a full disk (noted by
 * `noteServerError` from Remix's `handleError` and tRPC's `onError`), so the HTTP layer answers
 * 507 instead of 500 whichever route it was.
 */
export async function withRequestScope<T>(
  fn: () => Promise<T>,
  reqId?: string,
  drop?: () => void,
): Promise<{ result: T; diskFull: boolean }> {
  const store: Scope = { diskFull: false, reqId, drop };
  const result = await scope.run(store, fn);
  return { result, diskFull: store.diskFull };
}

/**
 * The request being handled where an exception escaped (issue 40.1): its id, and a way to drop
 * it (its connection closed, nothing more answered). Null outside any request's handling.
 */
export function escapedFrom(): { reqId: string; drop: () => void } | null {
  const store = scope.getStore();
  if (!store?.reqId) return null;
  return { reqId: store.reqId, drop: store.drop ?? (() => {}) };
}

/** Logs an unexpected server error; a full disk is one line (no stack) and marks the request. */
export function noteServerError(error: unknown, label = "[server]"): void {
  if (isDiskFull(error)) {
    const store = scope.getStore();
    if (store) store.diskFull = true;
    const cause =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    log.error(`${label} the data disk is full: ${cause}`);
    return;
  }
  log.error({ err: error }, `${label} ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * The JSON answer of an upload endpoint whose write met a full disk: 507 with the message in words
 * and a time to come back. Any other error is thrown on.
 */
export function storageFullJson(error: unknown, label: string): Response {
  if (!isDiskFull(error)) throw error;
  noteServerError(error, label);
  return Response.json(
    { error: STORAGE_FULL_MESSAGE },
    { status: 507, headers: { "Cache-Control": "no-store", "Retry-After": "300" } },
  );
}
