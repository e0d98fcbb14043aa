import { describe, expect, it } from "vitest";
import { dollarsToCents, formatDollars, formatMoney, formatWholeDollars } from "./money";
import { formatInteger } from "./numbers";

describe("formatDollars", () => {
  it("formats cents as whole dollars with thousands separators by default", () => {
    expect(formatDollars(250000)).toBe("$2,500");
    expect(formatDollars(850000)).toBe("$8,500");
    expect(formatDollars(1500000)).toBe("$15,000");
    expect(formatDollars(0)).toBe("$0");
  });
  it("rounds to the nearest dollar without decimals", () => {
    expect(formatDollars(5950)).toBe("$60");
    expect(formatDollars(5949)).toBe("$59");
    expect(formatDollars(24900)).toBe("$249");
  });
  it("shows cents with decimals: 2", () => {
    expect(formatDollars(150000, { decimals: 2 })).toBe("$1,500.00");
    expect(formatDollars(150050, { decimals: 2 })).toBe("$1,500.50");
    expect(formatDollars(180000, { decimals: 2 })).toBe("$1,800.00");
    expect(formatDollars(1, { decimals: 2 })).toBe("$0.01");
    expect(formatDollars(123456789, { decimals: 2 })).toBe("$1,234,567.89");
  });
  it("decimals: 0 is the same as the default", () => {
    expect(formatDollars(250049, { decimals: 0 })).toBe("$2,500");
  });
});

describe("formatWholeDollars", () => {
  it("rounds cents to whole dollars", () => {
    expect(formatWholeDollars(5900)).toBe("$59");
    expect(formatWholeDollars(5950)).toBe("$60");
    expect(formatWholeDollars(250000)).toBe("$2,500");
    expect(formatWholeDollars(49)).toBe("$0");
  });
});

describe("dollarsToCents", () => {
  it("converts numbers and numeric strings to integer cents", () => {
    expect(dollarsToCents(12.5)).toBe(1250);
    expect(dollarsToCents("12.5")).toBe(1250);
    expect(dollarsToCents(" 2500 ")).toBe(250000);
    expect(dollarsToCents("0")).toBe(0);
    expect(dollarsToCents(0)).toBe(0);
  });
  it("accepts a dollar sign and thousands separators", () => {
    expect(dollarsToCents("$1,200")).toBe(120000);
    expect(dollarsToCents("$8,500.00")).toBe(850000);
  });
  it("rounds to the nearest cent", () => {
    expect(dollarsToCents("12.345")).toBe(1235);
    expect(dollarsToCents("12.344")).toBe(1234);
    expect(dollarsToCents("1.005")).toBe(101);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(19.99)).toBe(1999);
  });
  it("rejects empty, non-numeric, non-finite and negative input", () => {
    expect(dollarsToCents("")).toBeNull();
    expect(dollarsToCents("   ")).toBeNull();
    expect(dollarsToCents("abc")).toBeNull();
    expect(dollarsToCents("12abc")).toBeNull();
    expect(dollarsToCents(Number.NaN)).toBeNull();
    expect(dollarsToCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(dollarsToCents("-1")).toBeNull();
    expect(dollarsToCents(-0.01)).toBeNull();
    expect(dollarsToCents(null)).toBeNull();
    expect(dollarsToCents(undefined)).toBeNull();
  });
});

describe("written as Intl's en-US currency format writes it (issue 42.4: no ICU at start)", () => {
  const whole = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
  const cents2 = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });
  const samples = [
    0, -0, 1, 49, 50, 99, 100, 101, 999, 1000, 5949, 5950, 99_999_999, 123_456_789, -1, -50, -5950, -123_456, 100.5,
    0.5, -0.4, -100.5, 12_345_678_901,
  ];
  let seed = 42;
  for (let i = 0; i < 300; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    samples.push(Math.floor(seed / 7) * (i % 3 === 0 ? -1 : 1));
  }
  it("whole dollars, cents and the booking totals", () => {
    for (const cents of samples) {
      expect(formatWholeDollars(cents), String(cents)).toBe(whole.format(Math.round(cents / 100)));
      expect(formatDollars(cents, { decimals: 2 }), String(cents)).toBe(cents2.format(cents / 100));
      expect(formatMoney(cents), String(cents)).toBe(
        cents % 100 === 0 ? whole.format(Math.round(cents / 100)) : cents2.format(cents / 100),
      );
    }
  });
  it("counts with thousands separators", () => {
    for (const n of [...samples, 1.5, -1.5, 2.5, 0.4, 1e15, 123_456_789.5])
      expect(formatInteger(n), String(n)).toBe(n.toLocaleString("en-US", { maximumFractionDigits: 0 }));
  });
});
