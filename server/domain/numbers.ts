/**
 * A count as en-US writes it, with thousands separators: 1234567 → "1,234,567", as
 * `n.toLocaleString("en-US")` writes a whole number, without loading ICU's data (see money.ts).
 * A fraction is rounded half away from zero first, as Intl rounds it.
 */
export function formatInteger(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "∞" : "-∞";
  const whole = Math.round(Math.abs(n));
  return `${n < 0 || Object.is(n, -0) ? "-" : ""}${String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
}
