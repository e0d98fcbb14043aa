/**
 * Issue 40.5: every amount the owner types is decimal dollars (not `0x10`, `1e29` or `Infinity`,
 * which Number() reads) and at most Stripe's limit for one payment, $999,999.99.
 */
import { describe, expect, it } from "vitest";
import { dollarsToCents, MAX_AMOUNT_CENTS } from "#domain/money";
import { AMOUNT_MESSAGES, parseAmount } from "#domain/payment-plan";
import { parseSection } from "#domain/studio-settings";
import { templateFormSchema } from "#domain/template-form";

describe("amounts are decimal dollars up to $999,999.99", () => {
  it("dollarsToCents reads decimal dollars only", () => {
    for (const typed of ["0x10", "1e5", "1e29", "Infinity", "+5", "0b11", "1_000", "٣"])
      expect(dollarsToCents(typed), typed).toBeNull();
    expect(dollarsToCents("$1,200.50")).toBe(120050);
    expect(dollarsToCents("999999.99")).toBe(MAX_AMOUNT_CENTS);
    expect(dollarsToCents("1000000")).toBeNull();
    expect(dollarsToCents("100000000000000000000000000000")).toBeNull();
  });

  it("a stage, a payment or a refund: 1e29 and its digits are refused, the limit named", () => {
    expect(parseAmount("1e29")).toEqual({ error: AMOUNT_MESSAGES.invalid });
    expect(parseAmount("0x10")).toEqual({ error: AMOUNT_MESSAGES.invalid });
    expect(parseAmount("100000000000000000000000000000")).toEqual({ error: AMOUNT_MESSAGES.tooLarge });
    expect(parseAmount("1000000")).toEqual({ error: AMOUNT_MESSAGES.tooLarge });
    expect(parseAmount(1e29)).toEqual({ error: AMOUNT_MESSAGES.invalid });
    expect(parseAmount("999,999.99")).toEqual({ cents: MAX_AMOUNT_CENTS });
    expect(parseAmount("-5")).toEqual({ error: AMOUNT_MESSAGES.positive });
  });

  it("a template price typed 0x10 is refused, not saved as $16", () => {
    const base = { name: "A", tagline: "B", description: "C", category: "saas", features: "x", included: "y" };
    const r = templateFormSchema.safeParse({ ...base, price: "0x10" });
    expect(r.success).toBe(false);
    expect(templateFormSchema.safeParse({ ...base, price: "16" }).data?.price).toBe(1600);
  });

  it("a package price or percent typed 0x10 or 1e3 is refused in Settings", () => {
    const f = new FormData();
    f.append("enabled", "on");
    f.append("discountPercent", "0x10");
    const promo = parseSection(f, "promotion");
    expect(promo.status).toBe("error");
    expect(Object.keys(promo.reply().error ?? {})).toContain("discountPercent");
  });
});
