import { z } from "zod";
import { text, trimmed } from "./form-text";

/**
 * Settings → Contract (issue 44.1, 44.7): the terms every proposal starts from (placeholders
 * filled in per client), whether the studio countersigns, how long a proposal stays open, and the
 * business details printed on invoices: legal name, address, tax id and an optional tax rate.
 * Client-safe: the console's form and the server's action read the same schema.
 *
 * Stage amounts are what the client pays, so a tax rate never changes an amount asked for: an
 * inclusive invoice prints the tax the total includes, an exclusive one prints the total as net
 * plus tax (decision 041).
 */

export const TAX_MODES = ["inclusive", "exclusive"] as const;
export type TaxMode = (typeof TAX_MODES)[number];

export type ContractSettings = {
  terms: string;
  countersign: boolean;
  expiryDays: number;
  legalName: string;
  address: string;
  taxId: string;
  taxLabel: string;
  /** Percent (e.g. 20 or 8.25); null: no tax on invoices. */
  taxRate: number | null;
  taxMode: TaxMode;
};

/** The placeholders a proposal's terms may hold, filled in when the proposal is drafted. */
export const TERMS_PLACEHOLDERS = ["client", "company", "package", "total", "studio", "date", "stages"] as const;
export type TermsFacts = Record<(typeof TERMS_PLACEHOLDERS)[number], string>;

/** `{client}` and the rest replaced by the facts; any other brace text is left as written. */
export function fillTerms(terms: string, facts: TermsFacts): string {
  return terms.replace(/\{(\w+)\}/g, (whole, key: string) =>
    (TERMS_PLACEHOLDERS as readonly string[]).includes(key) ? facts[key as keyof TermsFacts] : whole,
  );
}

export const DEFAULT_EXPIRY_DAYS = 14;
export const MAX_TERMS = 40_000;

const TAX_RATE_MESSAGE = "Enter a tax rate from 0 to 100 (up to two decimals), or leave it empty";

/** The rate typed ("20", "8.25%") to a number; "" to null. */
const taxRate = z.preprocess(
  (v) => {
    const s = String(v ?? "")
      .trim()
      .replace(/\s*%$/, "");
    if (s === "") return null;
    return /^\d{1,3}(?:\.\d{1,2})?$/.test(s) ? Number(s) : NaN;
  },
  z
    .number({ invalid_type_error: TAX_RATE_MESSAGE })
    .refine((n) => Number.isFinite(n) && n >= 0 && n <= 100, TAX_RATE_MESSAGE)
    .nullable(),
);

export const contractSchema = z.object({
  terms: text(MAX_TERMS, "The contract terms are required"),
  countersign: z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.boolean()),
  expiryDays: z.preprocess(
    (v) => {
      const s = String(v ?? "").trim();
      return /^\d{1,4}$/.test(s) ? Number(s) : NaN;
    },
    z
      .number({ invalid_type_error: "Enter a number of days from 1 to 90" })
      .refine((n) => Number.isInteger(n) && n >= 1 && n <= 90, "Enter a number of days from 1 to 90"),
  ),
  legalName: text(200),
  address: text(500),
  taxId: text(60),
  taxLabel: z.preprocess((v) => trimmed(v) || "Tax", z.string().max(40, "Please keep this under 40 characters")),
  taxRate,
  taxMode: z.enum(TAX_MODES, { errorMap: () => ({ message: "Choose inclusive or exclusive" }) }),
});

/** What a save wrote, read back. */
export const contractStored: z.ZodType<ContractSettings> = z.object({
  terms: z.string(),
  countersign: z.boolean(),
  expiryDays: z.number().int().min(1).max(90),
  legalName: z.string(),
  address: z.string(),
  taxId: z.string(),
  taxLabel: z.string(),
  taxRate: z.number().min(0).max(100).nullable(),
  taxMode: z.enum(TAX_MODES),
});

export function contractFormValues(c: ContractSettings): Record<string, string> {
  return {
    terms: c.terms,
    countersign: c.countersign ? "on" : "",
    expiryDays: String(c.expiryDays),
    legalName: c.legalName,
    address: c.address,
    taxId: c.taxId,
    taxLabel: c.taxLabel,
    taxRate: c.taxRate === null ? "" : String(c.taxRate),
    taxMode: c.taxMode,
  };
}

/** The tax an amount (cents, tax included) carries at `rate` percent, in cents. */
export function taxIncluded(amount: number, rate: number): number {
  return rate <= 0 ? 0 : Math.round((amount * rate) / (100 + rate));
}
