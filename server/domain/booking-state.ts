import { z } from "zod";
import { PACKAGE_IDS } from "./packages";
import { checkbox } from "./booking-schema";
import { hasRules, STEP_FIELDS, TOTAL_STEPS } from "./booking-rules";

// Zod-free parts the browser imports live in their own modules; the server finds them here too.
export { STEP_TITLES, TOTAL_STEPS } from "./booking-rules";
export { parseOrigin, UTM_KEYS, type Attribution } from "./attribution";

/**
 * The booking form state of SPEC.md §3 (files excluded: they live on the server), as a schema that
 * also reads it back from a stored draft: every field falls back to its empty value when it is
 * missing or of the wrong shape, so a draft is validated field by field before it becomes form
 * state. `BookingFormState` is its type; `emptyFormState()` is what it makes of nothing.
 */
export const formStateSchema = z.object({
  selectedPackage: z.union([z.enum(PACKAGE_IDS), z.literal("")]).catch(""),
  name: z.string().catch(""),
  email: z.string().catch(""),
  company: z.string().catch(""),
  phone: z.string().catch(""),
  websiteUrl: z.string().catch(""),
  isNewSite: checkbox.catch(false),
  primaryGoal: z.string().catch(""),
  targetAudience: z.string().catch(""),
  inspiration1: z.string().catch(""),
  inspiration2: z.string().catch(""),
  inspiration3: z.string().catch(""),
  mustHaveFeatures: z.string().catch(""),
  niceToHaveFeatures: z.string().catch(""),
  preferredStartDate: z.string().catch(""),
  timelineFlexibility: z.enum(["flexible", "rush"]).catch("flexible"),
  selectedAddOns: z.array(z.string()).catch([]),
  addOnQuantities: z.record(z.number().int()).catch({}),
  campaignAccepted: checkbox.catch(false),
  source: z.string().catch(""),
  /** First-touch attribution as a query string: utm_source, utm_medium, utm_campaign, referrer (see originOf). */
  origin: z.string().catch(""),
  /** The zone step 6 shows the built-in calendar's times in (the visitor's pick; "" until one is made). */
  callTimeZone: z.string().max(64).catch(""),
});
export type BookingFormState = z.infer<typeof formStateSchema>;

export const uploadedFileSchema = z.object({ name: z.string(), size: z.number().nonnegative(), path: z.string() });
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** The schema's reading of nothing, made once (the wizard's first step asks for it at every render). */
const EMPTY: BookingFormState = formStateSchema.parse({});

/** A new empty form state (its list and record are its own). */
export function emptyFormState(): BookingFormState {
  return { ...EMPTY, selectedAddOns: [], addOnQuantities: {} };
}

/**
 * A step's fields as typed, valid or not (what Back keeps): the posted values of the step's
 * rules' fields, read as form state (text as is, a checkbox as a boolean, an unknown package as "").
 */
export function typedStepState(step: number, payload: Record<string, unknown>): Partial<BookingFormState> {
  const fields = hasRules(step) ? STEP_FIELDS[step] : [];
  const keys = fields.filter((k): k is keyof BookingFormState => k in formStateSchema.shape);
  const mask = Object.fromEntries(keys.map((k) => [k, true])) as { [K in keyof BookingFormState]?: true };
  return formStateSchema.pick(mask).parse(payload);
}

/** SPEC.md §4 step completeness; steps 5 and 6 are always complete. */
export function isStepComplete(step: number, s: BookingFormState): boolean {
  switch (step) {
    case 1:
      return Boolean(s.selectedPackage && s.name && s.email && s.company);
    case 2:
      return Boolean(s.primaryGoal && s.targetAudience);
    case 3:
      return Boolean(s.inspiration1 && s.mustHaveFeatures);
    case 4:
      return Boolean(s.preferredStartDate && s.timelineFlexibility);
    default:
      return true;
  }
}

/** The first step whose earlier steps are not all complete, i.e. the furthest step one may open. */
export function furthestAllowedStep(s: BookingFormState, completed: number[] = []): number {
  for (let step = 1; step < TOTAL_STEPS; step++) {
    if (!isStepComplete(step, s) || (step <= 4 && !completed.includes(step))) return step;
  }
  return TOTAL_STEPS;
}

export function clampStep(value: unknown): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= TOTAL_STEPS ? n : 1;
}

/** A draft lives as long as its cookie: 30 days from its creation (the cookie's life; server/db/cleanup.server.ts removes it then). */
export const DRAFT_TTL_SECONDS = 60 * 60 * 24 * 30;
/** A draft with no completed step holds nothing typed: removed a day after its last change. */
export const EMPTY_DRAFT_TTL_SECONDS = 60 * 60 * 24;
