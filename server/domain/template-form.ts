import { z } from "zod";
import { CATEGORIES } from "./categories";
import { bareDollars, dollarsToCents, writtenAsDollars } from "./money";

const lines = (v: string) =>
  v
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
const commas = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The highest price a template may have: $100,000, in cents (issue 16.8). */
export const MAX_TEMPLATE_PRICE_CENTS = 10_000_000;
const tooHigh = (label: string) => `${label} must be at most $100,000`;

/** Dollars written as dollars, however many (dollarsToCents refuses those above its limit). */
const decimalDollars = (v: string | number) =>
  typeof v === "number" ? Number.isFinite(v) && v >= 0 : writtenAsDollars(bareDollars(v));

const dollars = (label: string) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const cents = dollarsToCents(v);
    if (cents === null && decimalDollars(v)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: tooHigh(label) });
      return z.NEVER;
    }
    if (cents === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${label} must be a number of at least 0` });
      return z.NEVER;
    }
    if (cents > MAX_TEMPLATE_PRICE_CENTS) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: tooHigh(label) });
      return z.NEVER;
    }
    return cents;
  });

/**
 * The admin template form (SPEC.md §5), in the form's own terms (dollars, lines, commas),
 * transformed into what the database stores (cents, lists). Prices are at least 0 (the spec)
 * and at most $100,000.
 */
export const templateFormSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(120),
  slug: z.string().trim().max(120).optional().default(""),
  tagline: z.string().trim().min(1, "Tagline is required").max(200),
  description: z.string().trim().min(1, "Description is required").max(5000),
  category: z.enum(CATEGORIES, { errorMap: () => ({ message: "Category is required" }) }),
  price: dollars("Price"),
  originalPrice: z
    .union([z.string(), z.number()])
    .optional()
    .transform((v, ctx) => {
      const cents = dollarsToCents(v);
      if (
        (cents === null && v !== undefined && decimalDollars(v)) ||
        (cents !== null && cents > MAX_TEMPLATE_PRICE_CENTS)
      ) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: tooHigh("Original Price") });
        return z.NEVER;
      }
      return cents && cents > 0 ? cents : null;
    }),
  features: z
    .string()
    .transform(lines)
    .pipe(z.array(z.string().max(300)).min(1, "Features are required").max(50)),
  included: z
    .string()
    .transform(lines)
    .pipe(z.array(z.string().max(300)).min(1, "What's Included is required").max(50)),
  techStack: z
    .string()
    .optional()
    .default("")
    .transform(commas)
    .pipe(z.array(z.string().max(60)).max(30)),
  tags: z
    .string()
    .optional()
    .default("")
    .transform(commas)
    .pipe(z.array(z.string().max(60)).max(30)),
  images: z
    .string()
    .optional()
    .default("")
    .transform(lines)
    .pipe(z.array(z.string().max(500)).max(15, "Maximum 15 file(s) allowed")),
  fileUrl: z
    .string()
    .trim()
    .max(500)
    .optional()
    .default("")
    .transform((v) => v || null),
});

export type TemplateFormInput = z.input<typeof templateFormSchema>;
export type TemplateFormOutput = z.output<typeof templateFormSchema>;
