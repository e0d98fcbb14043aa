import { describe, expect, it } from "vitest";
import { getPackage, packages } from "../../app/content/packages";
import { getCampaign, getPromotion, promotions } from "../../app/content/promotions";
import {
  clampQuantity,
  computeTotal,
  emptySelection,
  hasComputedPrice,
  normalizeSelection,
  parseSavedSelection,
  parseSelectionFromQuery,
  selectPackage,
  selectionToQuery,
  setQuantity,
  toggleAddOn,
  type Selection,
} from "../../app/lib/pricing";
import { dollarsToCents, formatDollars } from "../../app/lib/money";

const sel = (s: Partial<Selection> & Pick<Selection, "packageId">): Selection => ({ ...emptySelection(s.packageId), ...s });

describe("catalogue", () => {
  it("has the exact tiers of SPEC.md §9", () => {
    expect(packages.map((p) => [p.id, p.basePrice, p.timeline, p.priceDisplay])).toEqual([
      ["essentials", 250000, "2-3 weeks", "$2,500"],
      ["growth", 850000, "6-8 weeks", "$8,500"],
      ["custom", 1500000, "10-12 weeks", "$15k-25k+"],
    ]);
    expect(getPackage("growth").recommended).toBe(true);
    expect(getPackage("custom").requiresCall).toBe(true);
  });
  it("has the exact add-ons with their ids, prices and limits", () => {
    const view = (id: "essentials" | "growth" | "custom") => getPackage(id).addOns.map((a) => [a.id, a.price, a.maxQuantity]);
    expect(view("essentials")).toEqual([
      ["additional-page", 25000, 10],
      ["second-revision", 40000, 1],
      ["content-writing", 20000, 10],
      ["blog-setup", 50000, 1],
    ]);
    expect(view("growth")).toEqual([
      ["additional-concept", 100000, 3],
      ["extra-skus", 80000, 10],
      ["crm-integration", 200000, 1],
      ["content-strategy", 120000, 1],
      ["third-revision", 80000, 1],
    ]);
    expect(view("custom")).toEqual([
      ["project-manager", 250000, 1],
      ["retainer-90", 200000, 1],
      ["training", 150000, 1],
    ]);
  });
  it("has the promotion exactly, looked up by package", () => {
    const p = getPromotion("essentials")!;
    expect(p).toMatchObject({
      packageId: "essentials",
      discountPercent: 40,
      badge: "40% OFF",
      title: "Get 40% off Essentials Package",
      requirement: "Allow us to showcase your website in our portfolio",
      ctaText: "Yes! Feature my site & save 40%",
    });
    expect(getPromotion("growth")).toBeUndefined();
    const disabled = promotions.map((x) => ({ ...x, enabled: false }));
    expect(getPromotion("essentials", disabled)).toBeUndefined();
    expect(getCampaign("essentials")?.discountPercent).toBe(40);
  });
});

describe("totals", () => {
  it("are the base price of each tier with nothing added", () => {
    expect(computeTotal(sel({ packageId: "essentials" })).total).toBe(250000);
    expect(computeTotal(sel({ packageId: "growth" })).total).toBe(850000);
    expect(computeTotal(sel({ packageId: "custom" })).total).toBe(1500000);
    expect(hasComputedPrice("custom")).toBe(false);
  });
  it("add price × quantity and take 40% off Essentials when the campaign is accepted", () => {
    expect(computeTotal(sel({ packageId: "essentials", campaignAccepted: true })).total).toBe(150000);
    const s = sel({ packageId: "essentials", selectedAddOns: ["additional-page"], addOnQuantities: { "additional-page": 2 }, campaignAccepted: true });
    const r = computeTotal(s);
    expect(r.subtotal).toBe(300000);
    expect(r.discount).toBe(120000);
    expect(r.total).toBe(180000);
    const g = sel({
      packageId: "growth",
      selectedAddOns: ["additional-concept", "crm-integration", "extra-skus"],
      addOnQuantities: { "additional-concept": 3, "crm-integration": 1, "extra-skus": 4 },
      campaignAccepted: true,
    });
    expect(computeTotal(g).total).toBe(850000 + 300000 + 200000 + 320000);
  });
  it("round the discount to whole cents", () => {
    const odd = [{ ...promotions[0], discountPercent: 33 }];
    const s = sel({ packageId: "essentials", selectedAddOns: ["content-writing"], addOnQuantities: { "content-writing": 1 }, campaignAccepted: true });
    const r = computeTotal(s, { promotions: odd });
    expect(r.discount).toBe(Math.round((270000 * 33) / 100));
    expect(Number.isInteger(r.total)).toBe(true);
  });
  it("clamp quantities to each add-on's bounds", () => {
    for (const tier of packages) {
      for (const a of tier.addOns) {
        expect(clampQuantity(a, 0)).toBe(1);
        expect(clampQuantity(a, 999)).toBe(a.allowMultiple ? a.maxQuantity : 1);
      }
    }
    const s = setQuantity(sel({ packageId: "growth" }), "additional-concept", 7);
    expect(s.addOnQuantities["additional-concept"]).toBe(3);
  });
  it("ignore Custom add-ons in the booking flow and unknown add-ons everywhere", () => {
    const s = sel({ packageId: "custom", selectedAddOns: ["training", "nope"], addOnQuantities: { training: 1 } });
    expect(normalizeSelection(s, { context: "packages" }).selectedAddOns).toEqual(["training"]);
    expect(normalizeSelection(s, { context: "booking" }).selectedAddOns).toEqual([]);
    expect(normalizeSelection(sel({ packageId: "growth", campaignAccepted: true })).campaignAccepted).toBe(false);
  });
});

describe("state transitions", () => {
  it("toggle on sets 1, off removes; the stepper at its minimum removes", () => {
    let s = toggleAddOn(sel({ packageId: "essentials" }), "additional-page");
    expect(s.addOnQuantities["additional-page"]).toBe(1);
    s = setQuantity(s, "additional-page", 3);
    expect(s.addOnQuantities["additional-page"]).toBe(3);
    s = setQuantity(s, "additional-page", 0);
    expect(s.selectedAddOns).toEqual([]);
    expect(s.addOnQuantities).toEqual({});
  });
  it("choosing another package clears add-ons and the campaign", () => {
    const s = toggleAddOn(sel({ packageId: "essentials", campaignAccepted: true }), "blog-setup");
    expect(selectPackage(s, "essentials")).toBe(s);
    expect(selectPackage(s, "growth")).toEqual(emptySelection("growth"));
  });
  it("round-trip through the query string", () => {
    const s = sel({ packageId: "essentials", selectedAddOns: ["additional-page", "blog-setup"], addOnQuantities: { "additional-page": 3, "blog-setup": 1 }, campaignAccepted: true });
    const q = selectionToQuery(s);
    expect(q).toBe("tier=essentials&addOns=additional-page%2Cblog-setup&qty.additional-page=3&campaign=1");
    expect(parseSelectionFromQuery(new URLSearchParams(q))).toEqual(s);
    expect(parseSelectionFromQuery(new URLSearchParams("tier=gold"))).toBeUndefined();
    const form = new URLSearchParams("tier=growth&addOn=crm-integration&addOn=extra-skus&qty.extra-skus=2");
    expect(parseSelectionFromQuery(form)?.addOnQuantities).toEqual({ "crm-integration": 1, "extra-skus": 2 });
  });
  it("ignore a corrupt saved selection", () => {
    expect(parseSavedSelection("{not json")).toBeUndefined();
    expect(parseSavedSelection({ packageId: "gold" })).toBeUndefined();
    const ok = { packageId: "growth", selectedAddOns: [], addOnQuantities: {}, campaignAccepted: false, packageTotal: 850000, timestamp: 1 };
    expect(parseSavedSelection(JSON.stringify(ok))).toEqual(ok);
  });
});

describe("money", () => {
  it("formats cents as dollars", () => {
    expect(formatDollars(250000)).toBe("$2,500");
    expect(formatDollars(150050, { decimals: 2 })).toBe("$1,500.50");
    expect(formatDollars(5950)).toBe("$60");
  });
  it("parses dollars to cents", () => {
    expect(dollarsToCents("12.345")).toBe(1235);
    expect(dollarsToCents("$1,200")).toBe(120000);
    expect(dollarsToCents("")).toBeNull();
    expect(dollarsToCents("-1")).toBeNull();
    expect(dollarsToCents("abc")).toBeNull();
  });
});
