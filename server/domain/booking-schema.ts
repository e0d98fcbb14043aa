import { parseWithZod } from "@conform-to/zod";
import { plainEntries } from "./form-entries";
import { z, type ZodTypeAny } from "zod";
import { PACKAGE_IDS } from "./packages";
import { GOAL_IDS, hasRules, stepErrors, TIMELINE_IDS, type FieldValues } from "./booking-rules";

/**
 * The server's side of the booking steps: each step's schema parses a posted form into typed form
 * state, and its checks are the step's rules (booking-rules.ts), the same functions the browser
 * runs, so a step's messages are SPEC.md §5's, word for word, and written once (decision 029). The
 * rules run first; the parsing after them only gives the values their types (trimmed text, "on"
 * checkboxes as booleans, one or many add-ons, quantities as numbers). Conform's own coercion is
 * off: it would turn "" into undefined before the rules.
 */

// What the browser needs is in booking-rules.ts (no zod); the server's modules find it here too.
export {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_EXTENSIONS,
  AUDIENCE_MAX,
  AUDIENCE_MIN,
  earliestStartDate,
  FEATURES_MIN,
  fileTooLargeMessage,
  fileTypeMessage,
  firstErrors,
  goalLabel,
  isInspirationUrl,
  isoDatePlusDays,
  MAX_FILE_BYTES,
  MAX_FILES,
  MIN_LEAD_DAYS,
  PRIMARY_GOALS,
  TIMELINE_OPTIONS,
  TOO_MANY_FILES_MESSAGE,
  type PrimaryGoal,
} from "./booking-rules";

/** Posted text as form state: trimmed (the rules have checked it; anything not text is empty). */
const text = z.preprocess((v) => (typeof v === "string" ? v.trim() : ""), z.string());

export const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());

/**
 * A step's schema: its rules first (every broken rule's message at once, on its field), then the
 * shape that types what passed them. A post the rules refuse is not parsed further.
 */
function ruled<T extends ZodTypeAny>(step: 1 | 2 | 3 | 4, shape: T, now: () => Date) {
  return z
    .any()
    .superRefine((v: unknown, ctx) => {
      const values = (v && typeof v === "object" ? v : {}) as FieldValues;
      for (const [path, message] of Object.entries(stepErrors(step, values, now())))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    })
    .pipe(shape);
}

const step1Shape = z.object({
  selectedPackage: z.enum(PACKAGE_IDS),
  name: text,
  email: text,
  company: text,
  phone: text.optional(),
});
export const step1Schema = ruled(1, step1Shape, () => new Date());

const step2Shape = z.object({
  primaryGoal: z.enum(GOAL_IDS),
  targetAudience: text,
  websiteUrl: text,
  isNewSite: checkbox,
});
export const step2Schema = ruled(2, step2Shape, () => new Date());

const step3Shape = z.object({
  mustHaveFeatures: text,
  niceToHaveFeatures: text,
  inspiration1: text,
  inspiration2: text,
  inspiration3: text,
});
export const step3Schema = ruled(3, step3Shape, () => new Date());

const quantities = z.preprocess(
  (v) => (v && typeof v === "object" ? v : {}),
  z.record(z.string(), z.coerce.number().int().min(0).max(100)),
);

/** Step 4's add-ons as posted: what "Update total" and the steppers apply without validating the step. */
const addOnFields = {
  selectedAddOns: z.preprocess(
    (v) => (Array.isArray(v) ? v : typeof v === "string" && v ? [v] : []),
    z.array(z.string().max(60)).max(20),
  ),
  addOnQuantities: quantities,
  campaignAccepted: checkbox,
};
export const addOnsSchema = z.object(addOnFields);

const step4Shape = z.object({
  preferredStartDate: text,
  timelineFlexibility: z.preprocess((v) => (typeof v === "string" && v ? v : "flexible"), z.enum(TIMELINE_IDS)),
  ...addOnFields,
});
export function step4Schema(now: Date = new Date()) {
  return ruled(4, step4Shape, () => now);
}

/** The schema of a step with a form to validate (1 to 4); null for the others. */
export function stepSchema(step: number, now: Date = new Date()): ZodTypeAny | null {
  if (!hasRules(step)) return null;
  if (step === 1) return step1Schema;
  if (step === 2) return step2Schema;
  if (step === 3) return step3Schema;
  return step4Schema(now);
}

/** A step's form read and validated with its schema (conform's submission, for `reply()`). */
export function parseStep(form: FormData, schema: ZodTypeAny, opts: { intents?: boolean } = {}) {
  return parseWithZod(plainEntries(form, opts.intents ?? false), { schema, disableAutoCoercion: true });
}

export type Step1 = z.infer<typeof step1Schema>;
export type Step2 = z.infer<typeof step2Schema>;
export type Step3 = z.infer<typeof step3Schema>;
export type Step4 = z.infer<ReturnType<typeof step4Schema>>;
