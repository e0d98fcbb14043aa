import { describe, expect, it } from "vitest";
import { fillTerms, taxIncluded } from "#domain/contract-settings";
import { parseSection } from "#domain/studio-settings";
import { sampleContract } from "#domain/sample/contract";

/** Settings → Contract's form (issue 44.1, 44.7): what it keeps and what it refuses, in the owner's words. */
function form(fields: Record<string, string>) {
  const f = new FormData();
  for (const [k, v] of Object.entries({
    terms: "Terms for {client}",
    expiryDays: "14",
    legalName: "",
    address: "",
    taxId: "",
    taxLabel: "",
    taxRate: "",
    taxMode: "inclusive",
    ...fields,
  }))
    f.append(k, v);
  return parseSection(f, "contract");
}

describe("Settings → Contract", () => {
  it("keeps what was typed: countersigning, the tax rate as a number, Tax as the default tax name", () => {
    const s = form({ countersign: "on", taxRate: "8.25%", legalName: "  Rowan Design LLC " });
    expect(s.status).toBe("success");
    expect(s.status === "success" && s.value).toMatchObject({
      countersign: true,
      taxRate: 8.25,
      taxLabel: "Tax",
      legalName: "Rowan Design LLC",
      expiryDays: 14,
    });
    const none = form({});
    expect(none.status === "success" && none.value).toMatchObject({ countersign: false, taxRate: null });
  });

  it("names each problem at its field", () => {
    const s = form({ terms: " ", expiryDays: "0", taxRate: "12.345", taxMode: "both" });
    expect(s.status).toBe("error");
    const errors = s.reply().error ?? {};
    expect(errors.terms).toEqual(["The contract terms are required"]);
    expect(errors.expiryDays).toEqual(["Enter a number of days from 1 to 90"]);
    expect(errors.taxRate).toEqual(["Enter a tax rate from 0 to 100 (up to two decimals), or leave it empty"]);
    expect(errors.taxMode).toEqual(["Choose inclusive or exclusive"]);
  });

  it("fills the sample's placeholders and leaves other braces as written", () => {
    const facts = {
      client: "Ada",
      company: "Engines",
      package: "Growth",
      total: "$8,500",
      studio: "Rowan",
      date: "Nov 26",
      stages: "Deposit $1,700",
    };
    const filled = fillTerms(sampleContract.terms, facts);
    expect(filled).not.toMatch(/\{(client|company|package|total|studio|date|stages)\}/);
    expect(filled).toContain("between Rowan (the studio) and Ada of Engines");
    expect(fillTerms("{unknown} {client}", facts)).toBe("{unknown} Ada");
  });

  it("says the tax a total includes, rounded to the cent", () => {
    expect(taxIncluded(120_000, 20)).toBe(20_000);
    expect(taxIncluded(100, 8.25)).toBe(8);
    expect(taxIncluded(5000, 0)).toBe(0);
  });
});
