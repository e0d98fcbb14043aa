import { DRAFT_TTL_SECONDS } from "#domain/booking-state";
import { siteCookie } from "./site-cookie.server";
import { createDraft, draftById, type Draft } from "../booking/draft.server";
import type { DB } from "../db/db.server";
import { rateLimit } from "../rate-limit.server";

/**
 * The booking wizard's edge (issue 41.3): the visitor's draft is named by a signed cookie, read
 * and set here; the booking service (server/booking/draft.server.ts) takes the draft's id.
 */
const draftCookie = () => siteCookie("booking_draft", DRAFT_TTL_SECONDS);

/** The draft the request's cookie names, or null. */
export async function readDraft(db: DB, request: Request): Promise<Draft | null> {
  const id = await draftCookie().parse(request.headers.get("Cookie"));
  return typeof id === "string" ? draftById(db, id) : null;
}

/**
 * The visitor's draft, created (with a booking id generated once) when missing or when the
 * previous one was already confirmed. `setCookie` is set when the cookie must be (re)sent.
 * Creating one counts against the client's "booking-draft" limit: past it, TooManyRequests is
 * thrown and nothing is written (a visitor with a draft is never refused here).
 */
export async function getOrCreateDraft(
  db: DB,
  request: Request,
  opts: { fresh?: boolean; clientKey?: string } = {},
): Promise<{ draft: Draft; setCookie?: string }> {
  const existing = await readDraft(db, request);
  if (existing && !(opts.fresh && existing.confirmedAt)) return { draft: existing };
  await rateLimit("booking-draft", opts.clientKey ?? "");
  const draft = await createDraft(db);
  return { draft, setCookie: await draftCookie().serialize(draft.id) };
}
