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
 * Dollars typed by a person ("12.5", "$1,200", 12.5) to integer cents, Math.round(x × 100);
 * null when empty, not a finite number, or negative. The product is taken at 15 significant
 * digits first so binary noise does not flip a half cent ("1.005" → 101, not 100).
 */
export function dollarsToCents(input: string | number | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  if (typeof input === "string" && input.trim() === "") return null;
  const n = typeof input === "number" ? input : Number(input.trim().replace(/[$,\s]/g, ""));
  if (!Number.isFinite(n) || n < 0) return null;
  return Math.round(Number((n * 100).toPrecision(15))) + 0; // + 0 turns -0 into 0
}

/** Totals as the booking flow and its emails show them: "$11,500", or "$11,500.50" when there are cents. */
export function formatMoney(cents: number): string {
  return cents % 100 === 0 ? formatWholeDollars(cents) : cents2.format(cents / 100);
}
