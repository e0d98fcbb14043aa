import { isPackageId } from "#domain/packages";
import { getCampaign, getPackage, isOfferedPackage, type Catalogue } from "#domain/catalogue";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { addOnsSchema, parseStep, stepSchema } from "#domain/booking-schema";
import { furthestAllowedStep, parseOrigin, typedStepState, type BookingFormState } from "#domain/booking-state";
import { normalizeSelection, setQuantity, type Selection } from "#domain/pricing";
import type { StageSplit } from "#domain/payment-plan";
import { createPlan } from "../payments/plan.server";
import type { DB } from "../db/db.server";
import { nowIso, toJson } from "../db/json";
import type { BookingFile } from "../db/json-columns";
import { queueMail, type Mail, type QueuedMail } from "../email/mailer.server";
import type { CalendlyRef } from "./calendly.server";
import type { CalendarSettings } from "#domain/calendar-settings";
import { claimableSlot, SlotUnavailable } from "../calendar/calls.server";
import { planReminders, scheduledCall } from "./meeting.server";
import type { CallKnowledge } from "./emails.server";
import type { Draft } from "./draft.server";
import { priceOf } from "./review.server";
import { log } from "../log.server";

export type StepResult =
  { ok: true; patch: Partial<BookingFormState> } | { ok: false; reply: SubmissionResult<string[]> };

/**
 * Validates one step's form with its schema (through conform, as the browser does) and turns it
 * into a patch of the form state; when invalid, conform's reply: the messages and what was typed.
 */
export function validateStep(
  step: number,
  form: FormData,
  draft: Draft,
  catalogue: Catalogue,
  now = new Date(),
): StepResult {
  const schema = stepSchema(step, now);
  if (!schema) return { ok: true, patch: {} };
  const submission = parseStep(form, schema);
  if (submission.status !== "success") return { ok: false, reply: submission.reply() };
  const patch = { ...(submission.value as Partial<BookingFormState>) };
  if (step === 1) {
    // A package the studio no longer offers (Settings → Packages) cannot be chosen.
    if (!isOfferedPackage(catalogue, patch.selectedPackage))
      return { ok: false, reply: submission.reply({ fieldErrors: { selectedPackage: ["Please select a package"] } }) };
    patch.email = patch.email?.toLowerCase();
    patch.phone = patch.phone ?? "";
    if (draft.state.selectedPackage && draft.state.selectedPackage !== patch.selectedPackage) {
      patch.selectedAddOns = [];
      patch.addOnQuantities = {};
      patch.campaignAccepted = false;
    }
  }
  if (step === 2 && patch.isNewSite) patch.websiteUrl = "";
  if (step === 4) Object.assign(patch, addOnsState(selectionOf(draft, patch, catalogue)));
  return { ok: true, patch };
}

/** Posted add-ons for the draft's package, made consistent (known ids, quantities within range). */
function selectionOf(draft: Draft, posted: Partial<BookingFormState>, catalogue: Catalogue): Selection {
  const packageId = isPackageId(draft.state.selectedPackage) ? draft.state.selectedPackage : "essentials";
  return normalizeSelection(
    {
      packageId,
      selectedAddOns: posted.selectedAddOns ?? [],
      addOnQuantities: posted.addOnQuantities ?? {},
      campaignAccepted: posted.campaignAccepted ?? false,
    },
    { catalogue, context: "booking" },
  );
}

/** A selection as form state (its package is the draft's own). */
const addOnsState = ({ selectedAddOns, addOnQuantities, campaignAccepted }: Selection) => ({
  selectedAddOns,
  addOnQuantities,
  campaignAccepted,
});

/** What was typed in a step's form, not validated: conform's submission under an open schema. */
const typed = (form: FormData | null) => parseStep(form ?? new FormData(), z.any());

/**
 * A refusal of a step's post in conform's shape, so the step shows it where it shows its errors and
 * keeps what was typed: `field` "" is the form's own message. `form` may be unread (null).
 */
export function refusal(form: FormData | null, message: string, field = ""): SubmissionResult<string[]> {
  return typed(form).reply({
    ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
  });
}

/** What was typed, handed back without messages (the step re-rendered with the server's total). */
export function typedBack(form: FormData): SubmissionResult<string[]> {
  return typed(form).reply();
}

/** Back keeps what was typed in steps 1 to 3, valid or not, so the step shows it again. */
export function keptOnBack(step: number, form: FormData): Partial<BookingFormState> {
  return step <= 3 ? typedStepState(step, typed(form).payload) : {};
}

/** The draft's first-touch attribution as the booking's columns. */
function attributionColumns(origin: string) {
  const a = parseOrigin(origin);
  return { utm_source: a.utmSource, utm_medium: a.utmMedium, utm_campaign: a.utmCampaign, referrer: a.referrer };
}

export class BookingIncompleteError extends Error {
  constructor(readonly step: number) {
    super(`Step ${step} is incomplete`);
  }
}

/**
 * Saves the booking of a draft exactly once (the draft's booking id is the row's primary key),
 * and writes its `mails` to the outbox in the same transaction: an acknowledged booking always
 * has its mail. Returns `created: false` (and nothing queued) when it was already saved.
 * `calendly` names the call the calendar said was booked: stored (unless another booking holds
 * that invitee) with a read of Calendly's API due, so the loop reads it if no one else does.
 */
/** A time picked in the built-in calendar: its start (epoch ms), the zone it was picked in, the studio's calendar. */
export type PickedCall = {
  start: number;
  timeZone: string;
  calendar: CalendarSettings;
  /** The page where the client moves or cancels it (call-link.server.ts), for the booking's id. */
  manageUrl: (bookingId: string) => string;
};

export async function confirmBooking(
  db: DB,
  draft: Draft,
  userId: string | null,
  mails: (bookingId: string, known?: CallKnowledge) => Mail[] = () => [],
  opts: {
    catalogue: Catalogue;
    calendly?: CalendlyRef | null;
    call?: PickedCall | null;
    now?: Date;
    paymentSplit?: readonly StageSplit[];
  },
): Promise<{ bookingId: string; created: boolean; queued: QueuedMail[]; calendly: CalendlyRef | null }> {
  const s = draft.state;
  const furthest = furthestAllowedStep(s, draft.completed);
  if (furthest < 6 || !isPackageId(s.selectedPackage)) throw new BookingIncompleteError(furthest);
  const price = priceOf(s, opts.catalogue);
  const tier = getPackage(opts.catalogue, s.selectedPackage);
  if (!tier) throw new BookingIncompleteError(1);
  const campaign = s.campaignAccepted ? getCampaign(opts.catalogue, s.selectedPackage) : undefined;
  const inspiration = [s.inspiration1, s.inspiration2, s.inspiration3].filter(Boolean);
  const description = [
    `Must-have features: ${s.mustHaveFeatures}`,
    s.niceToHaveFeatures ? `Nice-to-have features: ${s.niceToHaveFeatures}` : "",
    s.isNewSite ? "New website (no current site)" : `Current website: ${s.websiteUrl}`,
  ]
    .filter(Boolean)
    .join("\n\n");
  const now = opts.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    // A write first, so the transaction takes the write lock at once (waiting, under the busy
    // timeout, for another writer) instead of reading and failing to upgrade later: the draft is
    // marked confirmed. None marked: a confirm of this draft sent twice saved it already.
    const marked = await trx
      .updateTable("booking_drafts")
      .set({ confirmed_at: nowIso() })
      .where("id", "=", draft.id)
      .where("confirmed_at", "is", null)
      .executeTakeFirst();
    // The time picked in the built-in calendar, checked again in this transaction.
    const picked = opts.call && Number(marked.numUpdatedRows) > 0 ? opts.call : null;
    const slot = picked ? await claimableSlot(trx, picked.calendar.availability, picked.start, now.getTime()) : null;
    let calendly = opts.calendly ?? null;
    if (
      calendly &&
      (await trx
        .selectFrom("bookings")
        .select("id")
        .where("calendly_invitee_uri", "=", calendly.inviteeUri)
        .executeTakeFirst())
    ) {
      log.warn(
        `[booking] the calendar booking ${calendly.inviteeUri} already belongs to another booking; saved without it`,
      );
      calendly = null;
    }
    const res = await trx
      .insertInto("bookings")
      .values({
        id: draft.bookingId,
        user_id: userId,
        email: s.email,
        full_name: s.name,
        company_name: s.company,
        phone: s.phone || null,
        package_type: s.selectedPackage as "essentials" | "growth" | "custom",
        package_price: tier.basePrice,
        package_name: tier.name,
        total_amount: price.total,
        discount_percent: campaign ? campaign.discountPercent : 0,
        campaign_accepted: campaign ? 1 : 0,
        website_url: s.isNewSite ? null : s.websiteUrl || null,
        is_new_site: s.isNewSite ? 1 : 0,
        project_description: description,
        project_goals: toJson([s.primaryGoal]),
        target_audience: s.targetAudience,
        inspiration_urls: toJson(inspiration),
        design_preferences: s.niceToHaveFeatures,
        desired_start_date: s.preferredStartDate,
        timeline_urgency: s.timelineFlexibility,
        // The prices it was made at (issue 29): a later change in Settings never alters this booking.
        addons: toJson(
          price.lines.map((l) => ({ id: l.addOn.id, quantity: l.quantity, name: l.addOn.name, price: l.addOn.price })),
        ),
        uploaded_files: toJson(draft.files.map((f): BookingFile => ({ name: f.name, size: f.size }))),
        uploaded_file_urls: toJson(draft.files.map((f) => f.path)),
        source: s.source || null,
        ...attributionColumns(s.origin ?? ""),
        calendly_event_uri: calendly?.eventUri ?? null,
        calendly_invitee_uri: calendly?.inviteeUri ?? null,
        // Read by the visitor's confirm right after this; by the loop if that does not finish (a crash).
        meeting_fetch_next_at: calendly ? new Date(now.getTime() + 60_000).toISOString() : null,
        ...(slot && picked
          ? {
              meeting_provider: "builtin" as const,
              meeting_status: "scheduled" as const,
              meeting_start_at: new Date(slot.start).toISOString(),
              meeting_end_at: new Date(slot.end).toISOString(),
              invitee_timezone: picked.timeZone,
              meeting_join_url: picked.calendar.meetingUrl || null,
              meeting_reschedule_url: picked.manageUrl(draft.bookingId),
              meeting_cancel_url: picked.manageUrl(draft.bookingId),
              meeting_updated_at: now.toISOString(),
            }
          : {}),
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst()
      .catch((error: unknown) => {
        // The unique index on a built-in call's start: another confirm wrote this time first.
        if (slot && String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT_UNIQUE"))
          throw new SlotUnavailable("taken");
        throw error;
      });
    const created = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    // Its payment plan from the studio's split (issue 31), saved with it.
    if (created) await createPlan(trx, draft.bookingId, price.total, opts.paymentSplit);
    // A built-in call is known at once: its reminders are planned, and the confirmation carries it.
    let known: CallKnowledge | undefined;
    if (created && slot) {
      await planReminders(trx, draft.bookingId, now, "Replaced.");
      known = (await scheduledCall(trx, draft.bookingId, now)) ?? undefined;
    }
    const queued = created ? await queueMail(trx, mails(draft.bookingId, known), now) : [];
    return { bookingId: draft.bookingId, created, queued, calendly: created ? calendly : null };
  });
}

/**
 * Step 4 without JavaScript: "Update total" (intent `update`) and the steppers' − and +
 * (`decrease:<id>`, `increase:<id>`) apply the posted add-ons to the draft without validating the
 * step, so the server can show the new total. Null for any other intent.
 */
export function addOnsUpdate(
  intent: string,
  form: FormData,
  draft: Draft,
  catalogue: Catalogue,
): Partial<BookingFormState> | null {
  const [op, id] = intent.split(":");
  if (intent !== "update" && !((op === "decrease" || op === "increase") && id)) return null;
  const posted = parseStep(form, addOnsSchema);
  let sel = selectionOf(draft, posted.status === "success" ? posted.value : {}, catalogue);
  if (op === "decrease" || op === "increase") {
    const selected = sel.selectedAddOns.includes(id);
    const q = sel.addOnQuantities[id] ?? 1;
    sel = setQuantity(sel, id, op === "increase" ? (selected ? q + 1 : 1) : selected ? q - 1 : 0, catalogue);
    sel = normalizeSelection(sel, { catalogue, context: "booking" });
  }
  return addOnsState(sel);
}
