/**
 * Money formatting and parsing. Amounts are integer cents everywhere; dollars are only for display
 * and typing. Written out rather than with Intl.NumberFormat: the first Intl object of a process
 * loads ICU's data, about 25 ms of every server start (issue 42.4); money.test.ts holds these to
 * Intl's en-US currency format.
 */
import { formatInteger } from "./numbers";

/** "$2,500" for 2500, "-$3" for -3: en-US currency, whole dollars (`dollars` already rounded). */
function usd(dollars: number): string {
  const negative = dollars < 0 || Object.is(dollars, -0);
  return `${negative ? "-" : ""}$${formatInteger(Math.abs(dollars))}`;
}

/** "$1,500.50": cents to dollars with two decimals, half a cent rounded away from zero. */
function usdCents(cents: number): string {
  const negative = cents < 0 || Object.is(cents, -0);
  const whole = Math.round(Math.abs(cents));
  const rest = whole % 100;
  return `${negative ? "-" : ""}$${formatInteger((whole - rest) / 100)}.${rest < 10 ? "0" : ""}${rest}`;
}

/** Whole dollars, rounded to the nearest dollar: 5950 → "$60" (template list and detail prices). */
export function formatWholeDollars(cents: number): string {
  return usd(Math.round(cents / 100));
}

/** "$2,500" (whole dollars, rounded) or "$2,500.00" with `decimals: 2`. */
export function formatDollars(cents: number, opts: { decimals?: 0 | 2 } = {}): string {
  return opts.decimals === 2 ? usdCents(cents) : formatWholeDollars(cents);
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
  return cents % 100 === 0 ? formatWholeDollars(cents) : usdCents(cents);
}
