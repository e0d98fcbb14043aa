import { parseWithZod } from "@conform-to/zod";
import { z, type ZodTypeAny } from "zod";
import { PACKAGE_IDS } from "./packages";

/**
 * One zod schema per booking step, shared through conform by the browser (`useForm`, instant
 * validation) and the server (`parseWithZod` in the step actions). Messages are SPEC.md §5's, word
 * for word. The schemas read form values themselves (trimmed text, "on" checkboxes, one or many
 * add-ons), so conform's own coercion is off: it would turn "" into undefined before the messages.
 */

export const PRIMARY_GOALS = [
  { id: "lead-gen", label: "Lead Generation" },
  { id: "ecommerce", label: "E-commerce" },
  { id: "portfolio", label: "Portfolio/Showcase" },
  { id: "information", label: "Information/Content" },
] as const;
export type PrimaryGoal = (typeof PRIMARY_GOALS)[number]["id"];
const GOAL_IDS = PRIMARY_GOALS.map((g) => g.id) as [PrimaryGoal, ...PrimaryGoal[]];

/** A primary goal's label as the form shows it ("" for none; an unknown id as it is). */
export function goalLabel(id: string): string {
  return PRIMARY_GOALS.find((g) => g.id === id)?.label ?? id;
}

export const TIMELINE_OPTIONS = [
  { id: "flexible", label: "Flexible" },
  { id: "rush", label: "Strict Deadline" },
] as const;

export const AUDIENCE_MIN = 10;
export const AUDIENCE_MAX = 200;
export const FEATURES_MIN = 20;
export const MIN_LEAD_DAYS = 14;
export const MAX_FILES = 5;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const text = (max = 2000) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : (v ?? "")),
    z.string().max(max, `Please keep this under ${max} characters`),
  );

export const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());

export const step1Schema = z.object({
  selectedPackage: z.preprocess(
    (v) => (typeof v === "string" ? v : ""),
    z.enum(PACKAGE_IDS, { errorMap: () => ({ message: "Please select a package" }) }),
  ),
  name: text(120).pipe(z.string().min(1, "Name is required")),
  email: text(254).pipe(z.string().min(1, "Email is required").email("Please enter a valid email")),
  company: text(160).pipe(z.string().min(1, "Company name is required")),
  phone: text(40).optional(),
});

// Cross-field rules live in their own schema, intersected with the fields' schema, so every
// message shows at once (zod skips an object's refinements while its fields have errors).
export const step2Schema = z
  .object({
    primaryGoal: z.preprocess(
      (v) => (typeof v === "string" ? v : ""),
      z.enum(GOAL_IDS, { errorMap: () => ({ message: "Please select a primary goal" }) }),
    ),
    targetAudience: text(5000).pipe(
      z
        .string()
        .min(1, "Target audience is required")
        .min(AUDIENCE_MIN, "Please provide more detail (at least 10 characters)")
        .max(AUDIENCE_MAX, `Please keep it under ${AUDIENCE_MAX} characters`),
    ),
  })
  .and(
    z.object({ websiteUrl: text(500), isNewSite: checkbox }).superRefine((v, ctx) => {
      if (!v.isNewSite && !v.websiteUrl) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["websiteUrl"],
          message: 'Website URL is required, or check "new site"',
        });
      }
    }),
  );

/** A filled inspiration URL must start with http:// or https:// and contain a dot. */
export function isInspirationUrl(value: string): boolean {
  return /^https?:\/\/\S*\.\S+$/i.test(value);
}
const URL_MESSAGE = "Please enter a valid URL (must start with http:// or https://)";

export const step3Schema = z
  .object({
    mustHaveFeatures: text(5000).pipe(
      z
        .string()
        .min(1, "Please describe your must-have features")
        .min(FEATURES_MIN, "Please provide more detail (at least 20 characters)"),
    ),
    niceToHaveFeatures: text(5000),
  })
  .and(
    z.object({ inspiration1: text(500), inspiration2: text(500), inspiration3: text(500) }).superRefine((v, ctx) => {
      const urls = [v.inspiration1, v.inspiration2, v.inspiration3];
      if (urls.every((u) => !u)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["inspiration1"],
          message: "Please provide at least one inspiration website",
        });
      }
      urls.forEach((u, i) => {
        if (u && !isInspirationUrl(u)) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [`inspiration${i + 1}`], message: URL_MESSAGE });
        }
      });
    }),
  );

/** Today's date (UTC) plus `days`, as YYYY-MM-DD. */
export function isoDatePlusDays(now: Date, days: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** The earliest start date a booking may ask for (14 days from today). */
export function earliestStartDate(now: Date = new Date()): string {
  return isoDatePlusDays(now, MIN_LEAD_DAYS);
}

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

export function step4Schema(now: Date = new Date()) {
  const earliest = earliestStartDate(now);
  return z.object({
    preferredStartDate: text(10).pipe(
      z
        .string()
        .min(1, "Please select a preferred start date")
        .regex(/^\d{4}-\d{2}-\d{2}$/, "Please select a preferred start date")
        .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "Please select a preferred start date")
        .refine((d) => d >= earliest, "Start date must be at least 2 weeks from today"),
    ),
    timelineFlexibility: z.preprocess(
      (v) => (typeof v === "string" && v ? v : "flexible"),
      z.enum(["flexible", "rush"], { errorMap: () => ({ message: "Please choose a timeline" }) }),
    ),
    ...addOnFields,
  });
}

/** The schema of a step with a form to validate (1 to 4); null for the others. */
export function stepSchema(step: number, now: Date = new Date()): ZodTypeAny | null {
  if (step === 1) return step1Schema;
  if (step === 2) return step2Schema;
  if (step === 3) return step3Schema;
  if (step === 4) return step4Schema(now);
  return null;
}

/** The field names a step's schema reads (through its refinements and intersections). */
export function schemaKeys(schema: ZodTypeAny): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape as object);
  if (schema instanceof z.ZodIntersection)
    return [...schemaKeys(schema._def.left as ZodTypeAny), ...schemaKeys(schema._def.right as ZodTypeAny)];
  if (schema instanceof z.ZodEffects) return schemaKeys(schema.innerType());
  return [];
}

/**
 * Conform reads dotted and bracketed names as paths and its own `__intent__` and `__state__` as
 * JSON. The booking forms use neither brackets nor those names, so a form posted to the server keeps
 * only plain names (`a` or `a.b`): a hostile `x[999999999]` can't build a huge array, nor bad JSON
 * throw. In the browser the form is the page's own and carries conform's intents (`intents: true`).
 */
const PLAIN_NAME = /^[A-Za-z][\w-]{0,63}(\.[\w-]{1,64})?$/;
const INTENT_NAME = "__intent__";
function plainEntries(form: FormData, intents: boolean): FormData {
  const out = new FormData();
  for (const [k, v] of form.entries()) if (PLAIN_NAME.test(k) || (intents && k === INTENT_NAME)) out.append(k, v);
  return out;
}

/** A step's form read and validated with its schema (conform's submission, for `reply()`). */
export function parseStep(form: FormData, schema: ZodTypeAny, opts: { intents?: boolean } = {}) {
  return parseWithZod(plainEntries(form, opts.intents ?? false), { schema, disableAutoCoercion: true });
}

export type Step1 = z.infer<typeof step1Schema>;
export type Step2 = z.infer<typeof step2Schema>;
export type Step3 = z.infer<typeof step3Schema>;
export type Step4 = z.infer<ReturnType<typeof step4Schema>>;

/** Upload rules of step 5 (SPEC.md §5). */
export const ACCEPTED_EXTENSIONS = [
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".svg",
  ".pdf",
  ".ai",
  ".psd",
  ".fig",
  ".sketch",
];
export const ACCEPT_ATTRIBUTE = "image/*,.pdf,.ai,.psd,.fig,.sketch";
export function fileTooLargeMessage(name: string): string {
  return `${name} exceeds 10MB limit`;
}
export function fileTypeMessage(name: string): string {
  return `Failed to upload ${name}: only images, PDF, AI, PSD, Fig and Sketch files are accepted`;
}
export const TOO_MANY_FILES_MESSAGE = "Maximum 5 files allowed";

/** The first message per field of conform's errors; the form's own error (conform's "") as `form`. */
export function firstErrors(error: Record<string, string[] | null | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(error ?? {})) if (messages?.[0]) out[key || "form"] = messages[0];
  return out;
}
