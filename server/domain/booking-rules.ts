import { PACKAGE_IDS } from "./packages";

/**
 * The booking wizard's rules, written once (decision 029): for each step with a form (1 to 4), what
 * the posted values must be and the message of the first rule a field breaks, word for word as
 * SPEC.md §5 has them. Plain TypeScript without zod, so the browser runs them as they are (instant
 * validation costs no schema library there); the server runs the very same functions inside its
 * step schemas (booking-schema.ts), which only add the parsing into typed form state.
 *
 * Values are read as the form posts them (`formValues`): text is trimmed, a checkbox is "on", a
 * name posted twice is a list; anything that is not text counts as empty.
 */

export type FieldValues = Record<string, unknown>;
/** The first message per field of a step; no key when the field is fine. */
export type StepErrors = Record<string, string>;

export const TOTAL_STEPS = 6;
export const STEP_TITLES = [
  "Package & contact",
  "Project details",
  "Inspiration & features",
  "Timeline & add-ons",
  "Brand assets",
  "Review & schedule",
] as const;

export const PRIMARY_GOALS = [
  { id: "lead-gen", label: "Lead Generation" },
  { id: "ecommerce", label: "E-commerce" },
  { id: "portfolio", label: "Portfolio/Showcase" },
  { id: "information", label: "Information/Content" },
] as const;
export type PrimaryGoal = (typeof PRIMARY_GOALS)[number]["id"];
export const GOAL_IDS = PRIMARY_GOALS.map((g) => g.id) as [PrimaryGoal, ...PrimaryGoal[]];

/** A primary goal's label as the form shows it ("" for none; an unknown id as it is). */
export function goalLabel(id: string): string {
  return PRIMARY_GOALS.find((g) => g.id === id)?.label ?? id;
}

export const TIMELINE_OPTIONS = [
  { id: "flexible", label: "Flexible" },
  { id: "rush", label: "Strict Deadline" },
] as const;
export const TIMELINE_IDS = ["flexible", "rush"] as const;

export const AUDIENCE_MIN = 10;
export const AUDIENCE_MAX = 200;
export const FEATURES_MIN = 20;
export const MIN_LEAD_DAYS = 14;
export const MAX_FILES = 5;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The longest text each field keeps (beyond it: "Please keep this under N characters"). */
export const TEXT_MAX = {
  name: 120,
  email: 254,
  company: 160,
  phone: 40,
  websiteUrl: 500,
  targetAudience: 5000,
  inspiration1: 500,
  inspiration2: 500,
  inspiration3: 500,
  mustHaveFeatures: 5000,
  niceToHaveFeatures: 5000,
  preferredStartDate: 10,
} as const;

export const MESSAGES = {
  package: "Please select a package",
  name: "Name is required",
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email",
  company: "Company name is required",
  websiteUrl: 'Website URL is required, or check "new site"',
  goal: "Please select a primary goal",
  audienceRequired: "Target audience is required",
  audienceShort: "Please provide more detail (at least 10 characters)",
  audienceLong: `Please keep it under ${AUDIENCE_MAX} characters`,
  inspirationRequired: "Please provide at least one inspiration website",
  inspirationUrl: "Please enter a valid URL (must start with http:// or https://)",
  featuresRequired: "Please describe your must-have features",
  featuresShort: "Please provide more detail (at least 20 characters)",
  startDate: "Please select a preferred start date",
  startDateSoon: "Start date must be at least 2 weeks from today",
  timeline: "Please choose a timeline",
} as const;
export const tooLongMessage = (max: number) => `Please keep this under ${max} characters`;

/** The names each step's form posts and its rules read (what Back keeps of a step, too). */
export const STEP_FIELDS: Record<1 | 2 | 3 | 4, readonly string[]> = {
  1: ["selectedPackage", "name", "email", "company", "phone"],
  2: ["primaryGoal", "targetAudience", "websiteUrl", "isNewSite"],
  3: ["mustHaveFeatures", "niceToHaveFeatures", "inspiration1", "inspiration2", "inspiration3"],
  4: ["preferredStartDate", "timelineFlexibility", "selectedAddOns", "addOnQuantities", "campaignAccepted"],
};

/** A posted text as the rules read it: trimmed; anything else (a file, a list) is empty. */
export function text(v: unknown): string {
  return typeof v === "string" ? v.trim() : "";
}

/** A posted checkbox: ticked when "on" (or true, "true", "1"). */
export function isChecked(v: unknown): boolean {
  return v === true || v === "on" || v === "true" || v === "1";
}

/** An email address as zod 3 accepted it (the rule the server has always applied). */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Z0-9_'+\-.]*)[A-Z0-9_+-]@([A-Z0-9][A-Z0-9-]*\.)+[A-Z]{2,}$/i;
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** A filled inspiration URL must start with http:// or https:// and contain a dot. */
export function isInspirationUrl(value: string): boolean {
  return /^https?:\/\/\S*\.\S+$/i.test(value);
}

/** Today's date (UTC) plus `days`, as YYYY-MM-DD. */
export function isoDatePlusDays(now: Date, days: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** The earliest start date a booking may ask for (14 days from today). */
export function earliestStartDate(now: Date = new Date()): string {
  return isoDatePlusDays(now, MIN_LEAD_DAYS);
}

/** A field's first broken rule: the checks in order, each a condition that must hold and its message. */
type Check = [ok: boolean | (() => boolean), message: string];
function first(errors: StepErrors, field: string, checks: Check[]) {
  for (const [ok, message] of checks) {
    if (!(typeof ok === "function" ? ok() : ok)) {
      errors[field] ??= message;
      return;
    }
  }
}

/** A text field's length limit, the first of its checks. */
function withinMax(errors: StepErrors, v: FieldValues, field: keyof typeof TEXT_MAX): string | null {
  const value = text(v[field]);
  if (value.length > TEXT_MAX[field]) {
    errors[field] = tooLongMessage(TEXT_MAX[field]);
    return null;
  }
  return value;
}

function step1(v: FieldValues): StepErrors {
  const e: StepErrors = {};
  const pkg = typeof v.selectedPackage === "string" ? v.selectedPackage : "";
  first(e, "selectedPackage", [[(PACKAGE_IDS as readonly string[]).includes(pkg), MESSAGES.package]]);
  const name = withinMax(e, v, "name");
  if (name !== null) first(e, "name", [[name.length > 0, MESSAGES.name]]);
  const email = withinMax(e, v, "email");
  if (email !== null)
    first(e, "email", [
      [email.length > 0, MESSAGES.emailRequired],
      [() => isEmail(email), MESSAGES.emailInvalid],
    ]);
  const company = withinMax(e, v, "company");
  if (company !== null) first(e, "company", [[company.length > 0, MESSAGES.company]]);
  withinMax(e, v, "phone");
  return e;
}

function step2(v: FieldValues): StepErrors {
  const e: StepErrors = {};
  const goal = typeof v.primaryGoal === "string" ? v.primaryGoal : "";
  first(e, "primaryGoal", [[(GOAL_IDS as readonly string[]).includes(goal), MESSAGES.goal]]);
  const audience = withinMax(e, v, "targetAudience");
  if (audience !== null)
    first(e, "targetAudience", [
      [audience.length > 0, MESSAGES.audienceRequired],
      [audience.length >= AUDIENCE_MIN, MESSAGES.audienceShort],
      [audience.length <= AUDIENCE_MAX, MESSAGES.audienceLong],
    ]);
  const url = withinMax(e, v, "websiteUrl");
  if (url !== null) first(e, "websiteUrl", [[isChecked(v.isNewSite) || url.length > 0, MESSAGES.websiteUrl]]);
  return e;
}

function step3(v: FieldValues): StepErrors {
  const e: StepErrors = {};
  const features = withinMax(e, v, "mustHaveFeatures");
  if (features !== null)
    first(e, "mustHaveFeatures", [
      [features.length > 0, MESSAGES.featuresRequired],
      [features.length >= FEATURES_MIN, MESSAGES.featuresShort],
    ]);
  withinMax(e, v, "niceToHaveFeatures");
  const fields = ["inspiration1", "inspiration2", "inspiration3"] as const;
  const urls = fields.map((f) => withinMax(e, v, f));
  if (urls.every((u) => u === "")) e.inspiration1 ??= MESSAGES.inspirationRequired;
  urls.forEach((u, i) => {
    if (u && !isInspirationUrl(u)) e[fields[i]] ??= MESSAGES.inspirationUrl;
  });
  return e;
}

function step4(v: FieldValues, now: Date): StepErrors {
  const e: StepErrors = {};
  const date = withinMax(e, v, "preferredStartDate");
  if (date !== null)
    first(e, "preferredStartDate", [
      [date.length > 0, MESSAGES.startDate],
      [/^\d{4}-\d{2}-\d{2}$/.test(date), MESSAGES.startDate],
      [() => !Number.isNaN(Date.parse(`${date}T00:00:00Z`)), MESSAGES.startDate],
      [() => date >= earliestStartDate(now), MESSAGES.startDateSoon],
    ]);
  const flex = v.timelineFlexibility;
  const timeline = typeof flex === "string" && flex ? flex : "flexible";
  first(e, "timelineFlexibility", [[(TIMELINE_IDS as readonly string[]).includes(timeline), MESSAGES.timeline]]);
  return e;
}

/** Does this step have a form whose fields are checked (1 to 4)? */
export function hasRules(step: number): step is 1 | 2 | 3 | 4 {
  return step === 1 || step === 2 || step === 3 || step === 4;
}

/** The first message per field of a step's posted values; {} when the step may go on (and for 5, 6). */
export function stepErrors(step: number, values: FieldValues, now: Date = new Date()): StepErrors {
  if (step === 1) return step1(values);
  if (step === 2) return step2(values);
  if (step === 3) return step3(values);
  if (step === 4) return step4(values, now);
  return {};
}

/**
 * A form's entries as the rules read them: one value per name, a list when a name is posted more
 * than once. Files are left out (no rule reads them).
 */
export function formValues(form: FormData): FieldValues {
  const out: Record<string, string | string[]> = {};
  for (const [k, value] of form.entries()) {
    if (typeof value !== "string") continue;
    const had = out[k];
    out[k] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

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

/**
 * The server's answer to a refused post as the step reads it (conform's reply: its messages per
 * field, "" for the form's own, and what was typed), without depending on conform in the browser.
 */
export type StepReply = {
  status?: "error" | "success";
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null>;
};

/** The first message per field of conform's errors; the form's own error (conform's "") as `form`. */
export function firstErrors(error: Record<string, string[] | null | undefined> | undefined | null): StepErrors {
  const out: StepErrors = {};
  for (const [key, messages] of Object.entries(error ?? {})) if (messages?.[0]) out[key || "form"] = messages[0];
  return out;
}
