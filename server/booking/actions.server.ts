import { data, redirect } from "@remix-run/node";
import { clampStep, furthestAllowedStep, type BookingFormState } from "~/lib/booking-state";
import { getSessionUser } from "../auth/auth.server";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { rateLimit, retryAfterHeaders, TooManyRequests, type LimitName } from "../http/rate-limit.server";
import { createStorage } from "../storage/storage.server";
import { BookingIncompleteError, confirmBooking, stepValues, validateStep } from "./booking.server";
import { getOrCreateDraft, saveDraftFiles, saveDraftState } from "./draft.server";
import { decodeCarry } from "./flow.server";
import { sendBookingEmails } from "./emails.server";
import { receiveBookingFiles } from "./uploads.server";

export const HONEYPOT_FIELD = "fax_number";

function isMultipart(request: Request) {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/**
 * POST /booking?step=N: `next` validates the step and moves on, `back` keeps what was typed and
 * goes back, `upload`/`remove` manage step-5 files, `confirm` saves the booking exactly once.
 */
export async function handleBookingPost(db: DB, request: Request, clientKey = "") {
  const url = new URL(request.url);
  const step = clampStep(url.searchParams.get("step"));
  // Step 1 starts a new draft when the last one was confirmed; later steps answer it with the success page.
  const { draft: initial, setCookie } = await getOrCreateDraft(db, request, { fresh: step === 1 });
  let draft = initial;
  const headers = new Headers();
  if (setCookie) headers.append("Set-Cookie", setCookie);
  const go = (to: string) => redirect(to, { headers });

  if (draft.confirmedAt) return go("/booking/success");

  /** 429 with Retry-After, the message shown where the step shows its errors. */
  const limited = (name: LimitName, field: string) => {
    try {
      rateLimit(name, clientKey);
      return null;
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      for (const [k, v] of Object.entries(retryAfterHeaders(error))) headers.set(k, v);
      return data({ errors: { [field]: error.message }, values: {} }, { status: 429, headers });
    }
  };

  let form: FormData;
  let uploadError: string | null = null;
  if (step === 5 && isMultipart(request)) {
    // Refused before the files are read (Node discards the unread body, already capped by the 413 limit).
    const refused = limited("booking-upload", "files");
    if (refused) return refused;
    const r = await receiveBookingFiles(request, { dataDir: env().DATA_DIR, bookingId: draft.bookingId, alreadyUploaded: draft.files.length });
    form = r.form;
    uploadError = r.error;
    if (r.stored.length) draft = await saveDraftFiles(db, draft, [...draft.files, ...r.stored]);
  } else {
    form = await request.formData();
  }
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
    if (uploadError) return data({ errors: { files: uploadError }, values: {} }, { status: 400, headers });
    if (intent === "upload") return go("/booking?step=5");
    if (intent === "back") return go("/booking?step=4");
    return go("/booking?step=6");
  }

  if (intent === "back") {
    if (step <= 3) {
      const raw = stepValues(step, form) as Partial<BookingFormState>;
      draft = await saveDraftState(db, draft, raw);
    }
    return go(`/booking?step=${Math.max(1, step - 1)}`);
  }

  if (step === 6) {
    if (intent !== "confirm") return go("/booking?step=6");
    const refused = limited("booking-confirm", "form");
    if (refused) return refused;
    const user = await getSessionUser(request).catch(() => null);
    try {
      const { bookingId, created } = await confirmBooking(db, draft, user?.id ?? null);
      if (created) await sendBookingEmails(db, bookingId, draft.state, draft.files);
      return go("/booking/success");
    } catch (error) {
      if (error instanceof BookingIncompleteError) return go(`/booking?step=${error.step}`);
      const message = error instanceof Error ? error.message : String(error);
      console.error("[booking] save failed", error);
      await sendBookingEmails(db, draft.bookingId, draft.state, draft.files);
      return go(`/booking/success?error=${encodeURIComponent(message.slice(0, 200))}`);
    }
  }

  const allowed = furthestAllowedStep(draft.state, draft.completed);
  if (step > allowed) return go(`/booking?step=${allowed}`);
  const result = validateStep(step, form, draft);
  if (!result.ok) return data({ errors: result.errors, values: result.values }, { status: 400, headers });
  let patch = result.patch;
  if (step === 1) {
    // What the first GET showed (a selection from /packages, the visit's source) is saved now.
    const carry = decodeCarry(form.get("carry"), draft.state);
    if (carry.selectedPackage && carry.selectedPackage !== patch.selectedPackage) {
      delete carry.selectedPackage;
      delete carry.selectedAddOns;
      delete carry.addOnQuantities;
      delete carry.campaignAccepted;
    }
    patch = { ...carry, ...patch };
  }
  await saveDraftState(db, draft, patch, step);
  return go(`/booking?step=${step + 1}`);
}
