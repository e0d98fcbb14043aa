const whole = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 0, maximumFractionDigits: 0 });
const cents2 = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "$2,500" (whole dollars, rounded) or "$2,500.00" with `decimals: 2`. */
export function formatDollars(cents: number, opts: { decimals?: 0 | 2 } = {}): string {
  return opts.decimals === 2 ? cents2.format(cents / 100) : whole.format(Math.round(cents / 100));
}

/** Whole dollars, rounded to the nearest dollar: 5950 → "$60" (template list and detail prices). */
export function formatWholeDollars(cents: number): string {
  return whole.format(Math.round(cents / 100));
}

/** Dollars typed by a person ("12.5", 12.5) to integer cents; null when not a number ≥ 0. */
export function dollarsToCents(input: string | number | null | undefined): number | null {
  if (input === null || input === undefined) return null;
  const n = typeof input === "number" ? input : Number(String(input).trim().replace(/[$,\s]/g, ""));
  if (typeof input === "string" && input.trim() === "") return null;
  if (!Number.isFinite(n) || n < 0) return null;
  return Math.round(n * 100);
}
