import { getPackage, isPackageId } from "~/content/packages";
import { getCampaign } from "~/content/promotions";
import {
  fieldErrors,
  step1Schema,
  step2Schema,
  step3Schema,
  step4Schema,
  type FieldErrors,
} from "~/lib/booking-schema";
import { furthestAllowedStep, parseOrigin, type BookingFormState } from "~/lib/booking-state";
import { computeTotal, normalizeSelection, setQuantity } from "~/lib/pricing";
import type { DB } from "../db/db.server";
import { nowIso, toJson } from "../db/json";
import type { BookingFile } from "../db/json-columns";
import { queueMail, type Mail, type QueuedMail } from "../email/mailer.server";
import type { CalendlyRef } from "./calendly.server";
import type { Draft } from "./draft.server";

export type StepResult =
  { ok: true; patch: Partial<BookingFormState> } | { ok: false; errors: FieldErrors; values: Record<string, unknown> };

function str(form: FormData, key: string): string {
  const v = form.get(key);
  return typeof v === "string" ? v : "";
}

/** Values of a step's form as a plain object (what is re-rendered when invalid). */
export function stepValues(step: number, form: FormData): Record<string, unknown> {
  switch (step) {
    case 1:
      return {
        selectedPackage: str(form, "selectedPackage"),
        name: str(form, "name"),
        email: str(form, "email"),
        company: str(form, "company"),
        phone: str(form, "phone"),
      };
    case 2:
      return {
        websiteUrl: str(form, "websiteUrl"),
        isNewSite: form.get("isNewSite") === "on" || form.get("isNewSite") === "true",
        primaryGoal: str(form, "primaryGoal"),
        targetAudience: str(form, "targetAudience"),
      };
    case 3:
      return {
        inspiration1: str(form, "inspiration1"),
        inspiration2: str(form, "inspiration2"),
        inspiration3: str(form, "inspiration3"),
        mustHaveFeatures: str(form, "mustHaveFeatures"),
        niceToHaveFeatures: str(form, "niceToHaveFeatures"),
      };
    case 4: {
      const selectedAddOns = form.getAll("selectedAddOns").filter((v): v is string => typeof v === "string");
      const addOnQuantities: Record<string, string> = {};
      for (const [k, v] of form.entries()) {
        if (k.startsWith("addOnQuantities.") && typeof v === "string")
          addOnQuantities[k.slice("addOnQuantities.".length)] = v;
      }
      return {
        preferredStartDate: str(form, "preferredStartDate"),
        timelineFlexibility: str(form, "timelineFlexibility"),
        selectedAddOns,
        addOnQuantities,
        campaignAccepted: form.get("campaignAccepted") === "on" || form.get("campaignAccepted") === "true",
      };
    }
    default:
      return {};
  }
}

/** Validates one step with its zod schema and turns it into a patch of the form state. */
export function validateStep(step: number, form: FormData, draft: Draft, now = new Date()): StepResult {
  const values = stepValues(step, form);
  if (step === 1) {
    const r = step1Schema.safeParse(values);
    if (!r.success) return { ok: false, errors: fieldErrors(r.error), values };
    const patch: Partial<BookingFormState> = {
      selectedPackage: r.data.selectedPackage,
      name: r.data.name,
      email: r.data.email.toLowerCase(),
      company: r.data.company,
      phone: r.data.phone ?? "",
    };
    if (draft.state.selectedPackage && draft.state.selectedPackage !== r.data.selectedPackage) {
      patch.selectedAddOns = [];
      patch.addOnQuantities = {};
      patch.campaignAccepted = false;
    }
    return { ok: true, patch };
  }
  if (step === 2) {
    const r = step2Schema.safeParse(values);
    if (!r.success) return { ok: false, errors: fieldErrors(r.error), values };
    return {
      ok: true,
      patch: {
        websiteUrl: r.data.isNewSite ? "" : r.data.websiteUrl,
        isNewSite: r.data.isNewSite,
        primaryGoal: r.data.primaryGoal,
        targetAudience: r.data.targetAudience,
      },
    };
  }
  if (step === 3) {
    const r = step3Schema.safeParse(values);
    if (!r.success) return { ok: false, errors: fieldErrors(r.error), values };
    return { ok: true, patch: r.data };
  }
  if (step === 4) {
    const r = step4Schema(now).safeParse(values);
    if (!r.success) return { ok: false, errors: fieldErrors(r.error), values };
    const pkg = isPackageId(draft.state.selectedPackage) ? draft.state.selectedPackage : "essentials";
    const sel = normalizeSelection(
      {
        packageId: pkg,
        selectedAddOns: r.data.selectedAddOns,
        addOnQuantities: r.data.addOnQuantities,
        campaignAccepted: r.data.campaignAccepted,
      },
      { context: "booking" },
    );
    return {
      ok: true,
      patch: {
        preferredStartDate: r.data.preferredStartDate,
        timelineFlexibility: r.data.timelineFlexibility,
        selectedAddOns: sel.selectedAddOns,
        addOnQuantities: sel.addOnQuantities,
        campaignAccepted: sel.campaignAccepted,
      },
    };
  }
  return { ok: true, patch: {} };
}

/** The price of a draft, computed on the server from the catalogue. */
export function priceOf(state: BookingFormState) {
  const pkg = isPackageId(state.selectedPackage) ? state.selectedPackage : "essentials";
  return computeTotal(
    {
      packageId: pkg,
      selectedAddOns: state.selectedAddOns,
      addOnQuantities: state.addOnQuantities,
      campaignAccepted: state.campaignAccepted,
    },
    { context: "booking" },
  );
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
export async function confirmBooking(
  db: DB,
  draft: Draft,
  userId: string | null,
  mails: (bookingId: string) => Mail[] = () => [],
  opts: { calendly?: CalendlyRef | null; now?: Date } = {},
): Promise<{ bookingId: string; created: boolean; queued: QueuedMail[]; calendly: CalendlyRef | null }> {
  const s = draft.state;
  const furthest = furthestAllowedStep(s, draft.completed);
  if (furthest < 6 || !isPackageId(s.selectedPackage)) throw new BookingIncompleteError(furthest);
  const price = priceOf(s);
  const tier = getPackage(s.selectedPackage);
  const campaign = s.campaignAccepted ? getCampaign(s.selectedPackage) : undefined;
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
    let calendly = opts.calendly ?? null;
    if (
      calendly &&
      (await trx
        .selectFrom("bookings")
        .select("id")
        .where("calendly_invitee_uri", "=", calendly.inviteeUri)
        .executeTakeFirst())
    ) {
      console.warn(
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
        addons: toJson(price.lines.map((l) => ({ id: l.addOn.id, quantity: l.quantity }))),
        uploaded_files: toJson(draft.files.map((f): BookingFile => ({ name: f.name, size: f.size }))),
        uploaded_file_urls: toJson(draft.files.map((f) => f.path)),
        source: s.source || null,
        ...attributionColumns(s.origin ?? ""),
        calendly_event_uri: calendly?.eventUri ?? null,
        calendly_invitee_uri: calendly?.inviteeUri ?? null,
        // Read by the visitor's confirm right after this; by the loop if that does not finish (a crash).
        meeting_fetch_next_at: calendly ? new Date(now.getTime() + 60_000).toISOString() : null,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    await trx
      .updateTable("booking_drafts")
      .set({ confirmed_at: nowIso() })
      .where("id", "=", draft.id)
      .where("confirmed_at", "is", null)
      .execute();
    const created = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
    const queued = created ? await queueMail(trx, mails(draft.bookingId), now) : [];
    return { bookingId: draft.bookingId, created, queued, calendly: created ? calendly : null };
  });
}

/**
 * Step 4 without JavaScript: "Update total" (intent `update`) and the steppers' − and +
 * (`decrease:<id>`, `increase:<id>`) apply the posted add-ons to the draft without validating the
 * step, so the server can show the new total. Null for any other intent.
 */
export function addOnsUpdate(intent: string, form: FormData, draft: Draft): Partial<BookingFormState> | null {
  const [op, id] = intent.split(":");
  if (intent !== "update" && !((op === "decrease" || op === "increase") && id)) return null;
  const raw = stepValues(4, form) as {
    selectedAddOns: string[];
    addOnQuantities: Record<string, string>;
    campaignAccepted: boolean;
  };
  const pkg = isPackageId(draft.state.selectedPackage) ? draft.state.selectedPackage : "essentials";
  const quantities = Object.fromEntries(Object.entries(raw.addOnQuantities).map(([k, v]) => [k, Number(v)]));
  let sel = normalizeSelection(
    {
      packageId: pkg,
      selectedAddOns: raw.selectedAddOns,
      addOnQuantities: quantities,
      campaignAccepted: raw.campaignAccepted,
    },
    { context: "booking" },
  );
  if (op === "decrease" || op === "increase") {
    const selected = sel.selectedAddOns.includes(id);
    const q = sel.addOnQuantities[id] ?? 1;
    sel = setQuantity(sel, id, op === "increase" ? (selected ? q + 1 : 1) : selected ? q - 1 : 0);
    sel = normalizeSelection(sel, { context: "booking" });
  }
  return {
    selectedAddOns: sel.selectedAddOns,
    addOnQuantities: sel.addOnQuantities,
    campaignAccepted: sel.campaignAccepted,
  };
}
