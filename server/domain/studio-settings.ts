import { parseWithZod } from "@conform-to/zod";
import { listEntries } from "./form-entries";
import { z } from "zod";
import { PACKAGE_IDS } from "./packages";
import { bareDollars, DECIMAL_DOLLARS } from "./money";
import { MAX_STAGE_LABEL, MAX_STAGES } from "./payment-plan";
import { webUrlProblem } from "./web-url";
import { calendarSchema } from "./calendar-settings";
import { contractSchema } from "./contract-settings";
import { text } from "./form-text";
import { formatInteger } from "./numbers";

/**
 * The console's Settings (issue 29): one zod schema per section, read by conform in the browser
 * (`useForm`) and on the server (`parseWithZod` in the Settings action), so a field is checked the
 * same way on both sides. Each schema takes the form's strings and gives the section as it is
 * stored (cents, lists, booleans). Conform's own coercion is off (as in the booking form): the
 * schemas read form values themselves, so empty fields get our messages, not "Required".
 */

export const SETTINGS_SECTIONS = [
  { id: "studio", label: "Studio", description: "Your name, bio, contact address and calendar." },
  { id: "packages", label: "Packages", description: "Tiers, prices and add-ons." },
  { id: "promotion", label: "Promotion", description: "The limited-time offer on one package." },
  { id: "caseStudies", label: "Case studies", description: "Projects on /work and the home page." },
  { id: "testimonials", label: "Testimonials", description: "Client quotes on the home and process pages." },
  { id: "legal", label: "Legal", description: "Terms of Service and Privacy Policy." },
  { id: "payments", label: "Payments", description: "How a project is paid: its stages and when invoices are due." },
  { id: "calendar", label: "Calendar", description: "Consultation calls: where they are booked, your hours." },
  {
    id: "contract",
    label: "Contract",
    description: "Proposal terms, countersigning, and your business details on invoices.",
  },
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]["id"];

export function isSettingsSection(v: unknown): v is SettingsSection {
  return SETTINGS_SECTIONS.some((s) => s.id === v);
}

export const MAX_PRICE_DOLLARS = 999_999;
export const MAX_CASE_STUDY_IMAGES = 6;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

// ---------- Reading form values (the schemas' building blocks) ----------

export { text };

const flag = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean());

/** One item a line (blank lines dropped), each at most `max` characters, at most `count` items. */
function lines(max: number, count: number, label: string) {
  return z.preprocess(
    (v) =>
      Array.isArray(v)
        ? v
        : String(v ?? "")
            .split(/\r?\n/)
            .map((s) => s.trim())
            .filter(Boolean),
    z
      .array(z.string().max(max, `Each line of ${label} must be under ${max} characters`))
      .max(count, `Please keep ${label} to ${count} lines or fewer`),
  );
}

/** Paragraphs separated by a blank line. */
function paragraphs(max: number, count: number) {
  return z.preprocess(
    (v) =>
      Array.isArray(v)
        ? v
        : String(v ?? "")
            .replace(/\r\n?/g, "\n")
            .split(/\n\s*\n/)
            .map((s) => s.replace(/\s*\n\s*/g, " ").trim())
            .filter(Boolean),
    z
      .array(z.string().max(max, `Each paragraph must be under ${formatInteger(max)} characters`))
      .max(count, `Please keep this to ${count} paragraphs or fewer`),
  );
}

/** Comma-separated words ("SaaS, Brand"). */
function commaList(max: number, count: number) {
  return z.preprocess(
    (v) =>
      Array.isArray(v)
        ? v
        : String(v ?? "")
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
    z.array(z.string().max(max, `Each tag must be under ${max} characters`)).max(count, `At most ${count} tags`),
  );
}

const PRICE_MESSAGE = `Enter a whole amount from $0 to $${formatInteger(MAX_PRICE_DOLLARS)}`;

/** Whole dollars typed ("2500", "$2,500") to cents. */
export const dollars = z.preprocess(
  (v) => {
    const s = bareDollars(String(v ?? ""));
    // Decimal dollars only: "0x10" or "1e5" is not a price (Number() would read 16 and 100000).
    return s === "" || !DECIMAL_DOLLARS.test(s) ? NaN : Number(s);
  },
  z
    .number({ invalid_type_error: PRICE_MESSAGE })
    .refine((n) => Number.isFinite(n), PRICE_MESSAGE)
    .refine((n) => Number.isInteger(n), "Prices are whole dollars (no cents)")
    .refine((n) => n >= 0 && n <= MAX_PRICE_DOLLARS, PRICE_MESSAGE)
    .transform((n) => n * 100),
);

function wholeNumber(min: number, max: number, message: string) {
  return z.preprocess(
    (v) => {
      const s = String(v ?? "").trim();
      return /^\d{1,9}$/.test(s) ? Number(s) : NaN;
    },
    z.number({ invalid_type_error: message }).refine((n) => Number.isInteger(n) && n >= min && n <= max, message),
  );
}

const email = (required: string) => text(254, required).pipe(z.string().email("Please enter a valid email"));

/** A link: `https://` or `http://` only (no `javascript:`, no `mailto:`). */
export function link(required?: string) {
  return text(500, required).pipe(
    z.string().refine((v) => {
      if (!v) return !required;
      try {
        const u = new URL(v);
        return (u.protocol === "https:" || u.protocol === "http:") && Boolean(u.hostname);
      } catch {
        return false;
      }
    }, "Links must start with https:// or http://"),
  );
}

// ---------- Studio ----------

export const studioSchema = z.object({
  name: text(80, "Studio name is required"),
  designer: text(80),
  role: text(120),
  bio: paragraphs(1200, 6),
  contactEmail: email("Contact email is required"),
  socialUrl: link(),
  socialLabel: text(40),
  footerLine: text(300),
  trustedBy: lines(60, 12, "trusted by"),
  // Its origin goes into the Content-Security-Policy: checked as a URL (web-url.ts), as CALENDLY_URL is.
  calendarUrl: link().pipe(
    z.string().superRefine((v, ctx) => {
      const problem = v ? webUrlProblem(v) : null;
      if (problem)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message:
            problem === "credentials"
              ? "The calendar link must not hold a user name or password"
              : "The calendar link must start with https://",
        });
    }),
  ),
});

// ---------- Packages ----------

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "add-on";

const addOnSchema = z
  .object({
    id: text(60),
    name: text(80, "Add-on name is required"),
    description: text(300),
    price: dollars,
    allowMultiple: flag,
    maxQuantity: z.preprocess((v) => (String(v ?? "").trim() === "" ? "1" : v), wholeNumber(1, 99, "From 1 to 99")),
  })
  .transform((a) => ({ ...a, maxQuantity: a.allowMultiple ? a.maxQuantity : 1 }));

const tierSchema = z.object({
  id: z.enum(PACKAGE_IDS),
  name: text(60, "Package name is required"),
  basePrice: dollars,
  priceLabel: text(40),
  timeline: text(60, "Timeline is required"),
  description: text(500, "Description is required"),
  recommended: flag,
  offered: flag,
  included: lines(120, 20, "included"),
  notIncluded: lines(120, 20, "not included"),
  cta: text(60, "Button text is required"),
  depositPercent: wholeNumber(0, 100, "A percent from 0 to 100"),
  addOns: z.preprocess((v) => v ?? [], z.array(addOnSchema).max(20, "At most 20 add-ons per package")),
});

/**
 * "At least one package" is read from the raw form before the fields: zod skips an object's own
 * refinements while one of its fields is invalid, and both messages must show at once.
 */
const atLeastOneOffered = (v: unknown, ctx: z.RefinementCtx) => {
  const tiers = (v as { tiers?: unknown } | null)?.tiers;
  const offered = Array.isArray(tiers) && tiers.some((t) => (t as { offered?: unknown } | null)?.offered === "on");
  if (!offered) ctx.addIssue({ code: "custom", path: ["tiers"], message: "Offer at least one package" });
  return v;
};

export const packagesSchema = z
  .preprocess(atLeastOneOffered, z.object({ tiers: z.array(tierSchema).length(PACKAGE_IDS.length) }))
  .superRefine((v, ctx) => {
    v.tiers.forEach((t, i) => {
      if (t.id !== PACKAGE_IDS[i])
        ctx.addIssue({ code: "custom", path: ["tiers", i, "id"], message: "Unknown package" });
    });
  })
  .transform((v) => ({
    packages: v.tiers.map(({ depositPercent, addOns, ...t }) => {
      const ids = new Set<string>();
      return {
        ...t,
        deposit: { percent: depositPercent, amount: Math.round((t.basePrice * depositPercent) / 100) },
        addOns: addOns.map((a) => {
          // A new add-on gets an id from its name, unique in its package; a saved one keeps its id
          // (drafts and bookings name add-ons by id).
          let id = a.id || slug(a.name);
          for (let n = 2; ids.has(id); n++) id = `${slug(a.name)}-${n}`;
          ids.add(id);
          return { ...a, id };
        }),
      };
    }),
  }));

// ---------- Promotion ----------

export const promotionSchema = z.object({
  enabled: flag,
  name: text(80, "Name is required"),
  packageId: z.preprocess(
    (v) => (typeof v === "string" ? v : ""),
    z.enum(PACKAGE_IDS, { errorMap: () => ({ message: "Please select a package" }) }),
  ),
  discountPercent: wholeNumber(1, 90, "A percent from 1 to 90"),
  badge: text(30, "Badge is required"),
  title: text(120, "Title is required"),
  description: text(300, "Description is required"),
  requirement: text(200, "Requirement is required"),
  ctaText: text(80, "Call to action is required"),
});

// ---------- Case studies ----------

export const caseStudyImageSchema = z.object({
  url: z.string().regex(/^\/files\/studio-images\/[\w.-]+$/, "Unknown image"),
  alt: text(200, "Describe the image for people who cannot see it"),
});

export const caseStudySchema = z.object({
  id: text(40),
  title: text(120, "Title is required"),
  client: text(120, "Client is required"),
  industry: text(60, "Industry is required"),
  challenge: text(1500, "Challenge is required"),
  solution: text(1500, "Solution is required"),
  result: text(1500, "Result is required"),
  tags: commaList(30, 6),
  metrics: z.preprocess(
    (v) => (Array.isArray(v) ? v : []),
    z
      .array(z.object({ label: text(40), value: text(20) }))
      .max(3)
      .transform((m) => m.filter((x) => x.label || x.value)),
  ),
  images: z.preprocess(
    (v) => v ?? [],
    z.array(caseStudyImageSchema).max(MAX_CASE_STUDY_IMAGES, `At most ${MAX_CASE_STUDY_IMAGES} images`),
  ),
});

// ---------- Testimonials ----------

export const testimonialsSchema = z.object({
  items: z.preprocess(
    (v) => v ?? [],
    z
      .array(
        z.object({
          id: text(40),
          quote: text(600, "Quote is required"),
          name: text(80, "Name is required"),
          role: text(120),
        }),
      )
      .max(12, "At most 12 testimonials"),
  ),
});

// ---------- Legal ----------

export const legalSchema = z.object({
  terms: text(40_000, "The terms are required"),
  privacy: text(40_000, "The privacy policy is required"),
});

// ---------- Payments ----------

const PERCENT_MESSAGE = "Enter a whole percent from 1 to 100";

/** The default plan of every new booking: its stages (they add up to 100%) and the days to pay. */
export const paymentsSchema = z
  .object({
    stages: z.preprocess(
      (v) => v ?? [],
      z
        .array(
          z.object({
            label: text(MAX_STAGE_LABEL, "Give the stage a name"),
            percent: wholeNumber(1, 100, PERCENT_MESSAGE),
            description: text(120),
          }),
        )
        .min(1, "Add at least one stage")
        .max(MAX_STAGES, `At most ${MAX_STAGES} stages`),
    ),
    dueBusinessDays: wholeNumber(1, 60, "Enter a number of business days from 1 to 60"),
  })
  .superRefine((v, ctx) => {
    const sum = v.stages.reduce((total, s) => total + (s.percent as number), 0);
    if (sum !== 100)
      ctx.addIssue({
        code: "custom",
        path: ["stages"],
        message: `The stages must add up to 100% (they add up to ${sum}%)`,
      });
  })
  .transform((v) => ({
    stages: v.stages.map((s) => ({ label: s.label, percent: s.percent as number, description: s.description })),
    dueBusinessDays: v.dueBusinessDays as number,
  }));

/** The schema of a section's form. */
export const SECTION_SCHEMAS = {
  studio: studioSchema,
  packages: packagesSchema,
  promotion: promotionSchema,
  caseStudies: caseStudySchema,
  testimonials: testimonialsSchema,
  legal: legalSchema,
  payments: paymentsSchema,
  calendar: calendarSchema,
  contract: contractSchema,
} as const;

/**
 * A section's form data parsed the same way in the browser and on the server; list indexes past
 * MAX_LIST_INDEX and malformed conform intents are dropped first (form-entries.ts).
 */
export function parseSection<S extends SettingsSection>(formData: FormData, section: S) {
  return parseWithZod(listEntries(formData), { schema: SECTION_SCHEMAS[section], disableAutoCoercion: true });
}
