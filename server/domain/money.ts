/** Money formatting and parsing. Amounts are integer cents everywhere; dollars are only for display and typing. */
const whole = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const cents2 = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Whole dollars, rounded to the nearest dollar: 5950 → "$60" (template list and detail prices). */
export function formatWholeDollars(cents: number): string {
  return whole.format(Math.round(cents / 100));
}

/** "$2,500" (whole dollars, rounded) or "$2,500.00" with `decimals: 2`. */
export function formatDollars(cents: number, opts: { decimals?: 0 | 2 } = {}): string {
  return opts.decimals === 2 ? cents2.format(cents / 100) : formatWholeDollars(cents);
}

/**
 * The most one amount may be: Stripe's limit for a single USD payment, $999,999.99. Every amount
 * the owner types (a price, a stage, a payment, a refund) is at most this (issue 40.5).
 */
export const MAX_AMOUNT_CENTS = 99_999_999;

/**
 * Decimal dollars as a person types them: digits with an optional decimal part, after `$`, commas
 * and spaces are dropped ("$1,200.50"). Not `0x10`, `1e5`, `Infinity` or a sign, which `Number()`
 * would read.
 */
export const DECIMAL_DOLLARS = /^\d{1,12}(?:\.\d{1,12})?$/;

/** What is left of typed dollars once `$`, commas and spaces are dropped. */
export const bareDollars = (input: string) => input.trim().replace(/[$,\s]/g, "");

/** Dollars written as digits with an optional decimal part, however many (no limit on length). */
export const writtenAsDollars = (bare: string) => /^\d+(?:\.\d+)?$/.test(bare);

/**
 * Dollars typed by a person ("12.5", "$1,200", 12.5) to integer cents, Math.round(x × 100);
 * null when empty, not written as decimal dollars (DECIMAL_DOLLARS), not a finite number,
 * negative, or above MAX_AMOUNT_CENTS. The product is taken at 15 significant digits first so
 * binary noise does not flip a half cent ("1.005" → 101, not 100).
 */
export function dollarsToCents(input: string | number | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  if (typeof input === "string" && input.trim() === "") return null;
  if (typeof input === "string" && !DECIMAL_DOLLARS.test(bareDollars(input))) return null;
  const n = typeof input === "number" ? input : Number(bareDollars(input));
  if (!Number.isFinite(n) || n < 0) return null;
  const cents = Math.round(Number((n * 100).toPrecision(15))) + 0; // + 0 turns -0 into 0
  return cents <= MAX_AMOUNT_CENTS ? cents : null;
}

/** Totals as the booking flow and its emails show them: "$11,500", or "$11,500.50" when there are cents. */
export function formatMoney(cents: number): string {
  return cents % 100 === 0 ? formatWholeDollars(cents) : cents2.format(cents / 100);
}
