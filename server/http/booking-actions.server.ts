import { data, redirect } from "@remix-run/node";
import { clampStep, furthestAllowedStep } from "#domain/booking-state";
import { getSessionUser } from "./session.server";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { rateLimit, TooManyRequests, type LimitName } from "../rate-limit.server";
import { retryAfterHeaders } from "./domain-errors";
import { noteServerError, STORAGE_FULL_MESSAGE, storageFullJson } from "./disk-full.server";
import { createStorage, isDiskFull } from "../storage/storage.server";
import {
  addOnsUpdate,
  BookingIncompleteError,
  confirmBooking,
  type PickedCall,
  keptOnBack,
  refusal,
  typedBack,
  validateStep,
} from "../booking/booking.server";
import {
  appendDraftFiles,
  saveDraftFiles,
  saveDraftState,
  TooManyDraftFiles,
  type Draft,
} from "../booking/draft.server";
import { getOrCreateDraft, readDraft } from "./draft-cookie.server";
import { decodeCarry } from "./booking-flow.server";
import { parseCalendlyRef } from "../booking/calendly.server";
import { openSlots, SlotUnavailable } from "../calendar/calls.server";
import { callLink } from "../booking/call-link.server";
import { isTimeZone } from "#domain/availability";
import { bookingEmails, deliverBookingEmails, sendBookingEmails } from "../booking/emails.server";
import { learnCallAtConfirm } from "../booking/meeting.server";
import { rewriteQueuedMail } from "../email/mailer.server";
import { bookingUploadRules, storeBookingFiles } from "../booking/uploads.server";
import { receiveUpload } from "./uploads.server";
import { MAX_FILES, TOO_MANY_FILES_MESSAGE } from "#domain/booking-schema";
import type { UploadedFile } from "#domain/booking-state";

import { getStudio } from "../studio/studio.server";
import { log } from "../log.server";

export const HONEYPOT_FIELD = "fax_number";
export const PICK_A_TIME = "Please pick a time for your call";

/** The zone the visitor picked step 6's times in, when it is one. */
function pickedZone(form: FormData): string | null {
  const zone = form.get("callTimeZone");
  return typeof zone === "string" && isTimeZone(zone) ? zone : null;
}

function isMultipart(request: Request) {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/**
 * POST /booking?step=N: `next` validates the step and moves on, `back` keeps what was typed and
 * goes back, `upload`/`remove` manage step-5 files, `confirm` saves the booking exactly once.
 * With the data disk full, the step answers 507 with a message in words and what was typed.
 */
export async function handleBookingPost(db: DB, request: Request, clientKey = "") {
  const posted: { form?: FormData } = {};
  try {
    return await bookingPost(db, request, clientKey, posted);
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    noteServerError(error, "[booking]");
    // What was typed comes back, also when the disk refused before the form was read (a new draft).
    const form =
      posted.form ?? (!request.bodyUsed && !isMultipart(request) ? await request.formData().catch(() => null) : null);
    return data(refusal(form, STORAGE_FULL_MESSAGE), { status: 507, headers: { "Retry-After": "300" } });
  }
}

async function bookingPost(db: DB, request: Request, clientKey: string, posted: { form?: FormData }) {
  const url = new URL(request.url);
  const step = clampStep(url.searchParams.get("step"));
  // Step 1 starts a new draft when the last one was confirmed; later steps answer it with the success page.
  let opened: Awaited<ReturnType<typeof getOrCreateDraft>>;
  try {
    opened = await getOrCreateDraft(db, request, { fresh: step === 1, clientKey });
  } catch (error) {
    // Too many new drafts from this client: 429, the message where the step shows its errors.
    if (!(error instanceof TooManyRequests)) throw error;
    const form = isMultipart(request) ? null : await request.formData();
    return data(refusal(form, error.message), { status: 429, headers: retryAfterHeaders(error) });
  }
  const { draft: initial, setCookie } = opened;
  let draft = initial;
  const headers = new Headers();
  if (setCookie) headers.append("Set-Cookie", setCookie);
  const go = (to: string) => redirect(to, { headers });

  if (draft.confirmedAt) return go("/booking/success");
  // Prices, packages and the studio's words as saved in Settings (read once per request).
  const studio = await getStudio(db, { studioEmail: env().STUDIO_EMAIL });

  /** 429 with Retry-After, the message shown where the step shows its errors. */
  const limited = async (name: LimitName, form: FormData | null, field = "") => {
    try {
      await rateLimit(name, clientKey);
      return null;
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      for (const [k, v] of Object.entries(retryAfterHeaders(error))) headers.set(k, v);
      return data(refusal(form, error.message, field), { status: 429, headers });
    }
  };

  let form: FormData;
  let uploadError: string | null = null;
  if (step === 5 && isMultipart(request)) {
    // Refused before the files are read (Node discards the unread body, already capped by the 413 limit).
    const refused = await limited("booking-upload", null, "files");
    if (refused) return refused;
    const r = await storeBookingFiles(
      await receiveUpload(request, env().DATA_DIR, bookingUploadRules(draft.files.length)),
      { dataDir: env().DATA_DIR, bookingId: draft.bookingId },
    );
    form = r.form;
    const added = await addUploadedFiles(db, draft, r.stored);
    draft = added.draft;
    uploadError = r.error ?? added.error;
  } else {
    form = await request.formData();
  }
  posted.form = form;
  const intent = String(form.get("intent") ?? "next");

  // A filled honeypot means a bot: answer like a success, store nothing.
  if (typeof form.get(HONEYPOT_FIELD) === "string" && form.get(HONEYPOT_FIELD) !== "") {
    return go(intent === "confirm" ? "/booking/success" : `/booking?step=${Math.min(step + 1, 6)}`);
  }

  if (step === 5) {
    const remove = form.get("remove");
    if (typeof remove === "string" && remove) {
      const keep = draft.files.filter((f) => f.path !== remove);
      if (keep.length !== draft.files.length) {
        createStorage(env().DATA_DIR).remove("booking-files", remove);
        draft = await saveDraftFiles(db, draft, keep);
      }
      return go("/booking?step=5");
    }
    if (uploadError) return data(refusal(form, uploadError, "files"), { status: 400, headers });
    if (intent === "upload") return go("/booking?step=5");
    if (intent === "back") return go("/booking?step=4");
    return go("/booking?step=6");
  }

  const addOns = step === 4 ? addOnsUpdate(intent, form, draft, studio.catalogue) : null;
  if (addOns) {
    // The step again with the server's total; what was typed in the other fields stays as typed.
    await saveDraftState(db, draft, addOns);
    return data(typedBack(form), { headers });
  }

  if (intent === "back") {
    if (step <= 3) draft = await saveDraftState(db, draft, keptOnBack(step, form));
    return go(`/booking?step=${Math.max(1, step - 1)}`);
  }

  if (step === 6) {
    const builtin = studio.calendar.provider === "builtin";
    // The built-in calendar's times in another zone (without JavaScript: the zone select's button).
    if (intent === "timezone") {
      const zone = pickedZone(form);
      if (zone) draft = await saveDraftState(db, draft, { callTimeZone: zone });
      return go("/booking?step=6");
    }
    if (intent !== "confirm") return go("/booking?step=6");
    const refused = await limited("booking-confirm", form);
    if (refused) return refused;
    let call: PickedCall | null = null;
    if (builtin) {
      const posted = form.get("slot");
      const start = typeof posted === "string" && posted.length <= 40 ? Date.parse(posted) : NaN;
      const zone = pickedZone(form) ?? (draft.state.callTimeZone || studio.calendar.availability.timeZone);
      const e = env();
      if (Number.isFinite(start))
        call = {
          start,
          timeZone: zone,
          calendar: studio.calendar,
          manageUrl: (id) => callLink(e.APP_URL, id, e.SESSION_SECRET),
        };
      // Without a time only when the calendar has none to offer (the step says so): the studio writes.
      else if ((await openSlots(db, studio.calendar.availability, Date.now())).length)
        return data(refusal(form, PICK_A_TIME, "slot"), { status: 400, headers });
    }
    const user = await getSessionUser(request).catch(() => null);
    // The calendar's message names its event and invitee: only a hint, the time is read from Calendly.
    const hint = builtin ? null : parseCalendlyRef(form.get("eventUri"), form.get("inviteeUri"));
    const e = { ...env(), studio };
    try {
      const saved = await confirmBooking(
        db,
        draft,
        user?.id ?? null,
        (id, known) =>
          bookingEmails(id, draft.state, draft.files, e, known ?? (builtin ? { state: "unscheduled" } : undefined)),
        { calendly: hint, call, catalogue: studio.catalogue, paymentSplit: studio.paymentTerms.stages },
      );
      if (saved.created && !builtin) {
        // Known within the visitor's wait: the confirmation says when, and carries the invitation.
        const known = await learnCallAtConfirm(db, e, {
          id: saved.bookingId,
          email: draft.state.email,
          ref: saved.calendly,
        }).catch((error: unknown) => {
          log.error({ err: error }, "[booking] learning the call failed");
          return null;
        });
        if (known) {
          const mails = bookingEmails(saved.bookingId, draft.state, draft.files, e, known);
          await Promise.all(saved.queued.map((q, i) => (mails[i] ? rewriteQueuedMail(db, q, mails[i]) : false)));
        }
      }
      await deliverBookingEmails(db, e, saved.queued);
      return go("/booking/success");
    } catch (error) {
      if (error instanceof BookingIncompleteError) return go(`/booking?step=${error.step}`);
      // Another visitor's confirm took the time, or it is not one of the times offered: the step
      // again with fresh times and the message, every answer kept in the draft.
      if (error instanceof SlotUnavailable)
        return data(refusal(form, error.message, "slot"), { status: error.reason === "taken" ? 409 : 400, headers });
      // Nothing was saved and no mail could be written either: the visitor is told, and can retry.
      if (isDiskFull(error)) throw error;
      log.error({ err: error }, "[booking] save failed");
      await sendBookingEmails(db, e, draft.bookingId, draft.state, draft.files);
      // A code, never the error's text: the success page maps it to the spec's message.
      return go("/booking/success?error=save_failed");
    }
  }

  const allowed = furthestAllowedStep(draft.state, draft.completed);
  if (step > allowed) return go(`/booking?step=${allowed}`);
  const result = validateStep(step, form, draft, studio.catalogue);
  if (!result.ok) return data(result.reply, { status: 400, headers });
  let patch = result.patch;
  if (step === 1) {
    // What the first GET showed (a selection from /packages, the visit's source) is saved now.
    const carry = decodeCarry(form.get("carry"), draft.state, studio.catalogue);
    if (carry.selectedPackage && carry.selectedPackage !== patch.selectedPackage) {
      delete carry.selectedPackage;
      delete carry.selectedAddOns;
      delete carry.addOnQuantities;
      delete carry.campaignAccepted;
    }
    patch = { ...carry, ...patch };
  }
  const saved = await saveDraftState(db, draft, patch, step);
  // Opened from the review's Edit: back to the review once nothing before it is missing.
  if (form.get("from") === "review" && furthestAllowedStep(saved.state, saved.completed) === 6)
    return go("/booking?step=6");
  return go(`/booking?step=${step + 1}`);
}

/** Stored files added to the draft; past the maximum (a race) they are removed again and refused. */
async function addUploadedFiles(
  db: DB,
  draft: Draft,
  stored: UploadedFile[],
): Promise<{ draft: Draft; error: string | null }> {
  try {
    return { draft: await appendDraftFiles(db, draft, stored, MAX_FILES), error: null };
  } catch (error) {
    if (!(error instanceof TooManyDraftFiles)) throw error;
    createStorage(env().DATA_DIR).removeMany(
      "booking-files",
      stored.map((f) => f.path),
    );
    return { draft, error: TOO_MANY_FILES_MESSAGE };
  }
}

const json = (body: unknown, status = 200, headers?: HeadersInit) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

/**
 * POST /booking/files: one brand asset at a time, as the wizard sends them with JavaScript (with
 * progress). Same checks as the step-5 form post: the draft must have reached step 5, at most 5
 * files in all, 10 MB each, accepted types by content. Answers JSON: the draft's files, or an error.
 */
export async function handleBookingFileUpload(db: DB, request: Request, clientKey = "") {
  const draft = await readDraft(db, request);
  if (!draft || draft.confirmedAt || furthestAllowedStep(draft.state, draft.completed) < 5) {
    return json({ error: "Your booking session has expired. Please reload the page." }, 409);
  }
  try {
    await rateLimit("booking-upload", clientKey);
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error;
    return json({ error: error.message }, 429, retryAfterHeaders(error));
  }
  if (!isMultipart(request)) return json({ error: "Send the file as multipart/form-data." }, 415);
  let r: Awaited<ReturnType<typeof storeBookingFiles>>;
  let added: Awaited<ReturnType<typeof addUploadedFiles>>;
  try {
    r = await storeBookingFiles(await receiveUpload(request, env().DATA_DIR, bookingUploadRules(draft.files.length)), {
      dataDir: env().DATA_DIR,
      bookingId: draft.bookingId,
    });
    added = await addUploadedFiles(db, draft, r.stored);
  } catch (error) {
    return storageFullJson(error, "[booking]");
  }
  const error = r.error ?? added.error;
  const files = added.draft.files.map(({ name, size, path }) => ({ name, size, path }));
  if (error) return json({ error, files }, 400);
  if (!r.stored.length) return json({ error: "No file was received.", files }, 400);
  return json({ files });
}
