import { afterEach, describe, expect, it, vi } from "vitest";
import { isPackageId, PAYMENT_METHODS, type PackageId } from "#domain/packages";
import { invoiceTerms } from "#domain/payment-plan";
import { samplePaymentTerms } from "#domain/sample/payments";
import { samplePackages } from "#domain/sample/packages";
import { samplePromotion, type PromotionData } from "#domain/promotions";
import * as cat from "#domain/catalogue";
import { sampleCatalogue } from "#domain/sample/catalogue";
import {
  clampQuantity,
  computeTotal as computeTotalIn,
  emptySelection,
  hasComputedPrice,
  normalizeSelection as normalizeSelectionIn,
  parseSavedSelection,
  parseSelectionFromQuery as parseSelectionFromQueryIn,
  selectPackage,
  selectionToQuery,
  setQuantity as setQuantityIn,
  toggleAddOn,
  type PricingContext,
  type Selection,
} from "#domain/pricing";
import { formatDollars } from "#domain/money";

// The rules read a catalogue (issue 29: prices are data); these tests read the sample studio's,
// or one with its promotion changed.
const C = sampleCatalogue;
const packages = C.packages;
const withPromotion = (patch: Partial<PromotionData>) =>
  cat.catalogueFrom({ packages: samplePackages, promotion: { ...samplePromotion, ...patch } });
const getPackage = (id: string) => cat.getPackage(C, id)!;
const getAddOn = (p: PackageId, id: string) => cat.getAddOn(C, p, id);
const bookableAddOns = (id: PackageId) => cat.bookableAddOns(C, id);
const getCampaign = (id: string) => cat.getCampaign(C, id);
const getPromotion = (id: string, c: cat.Catalogue = C) => cat.getPromotion(c, id);
type Opts = { context?: PricingContext; catalogue?: cat.Catalogue };
const computeTotal = (s: Selection, o: Opts = {}) => computeTotalIn(s, { catalogue: C, ...o });
const normalizeSelection = (s: Selection, o: Opts = {}) => normalizeSelectionIn(s, { catalogue: C, ...o });
const setQuantity = (s: Selection, id: string, q: number) => setQuantityIn(s, id, q, C);
const parseSelectionFromQuery = (p: URLSearchParams, context?: PricingContext) =>
  parseSelectionFromQueryIn(p, C, context);

const sel = (s: Partial<Selection> & Pick<Selection, "packageId">): Selection => ({
  ...emptySelection(s.packageId),
  ...s,
});
const addOn = (packageId: PackageId, id: string) => {
  const a = getAddOn(packageId, id);
  if (!a) throw new Error(`missing add-on ${packageId}/${id}`);
  return a;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("catalogue", () => {
  it("has the exact tiers of SPEC.md §9", () => {
    expect(
      packages.map((p) => [
        p.id,
        p.name,
        p.basePrice,
        p.timeline,
        p.priceDisplay,
        p.recommended,
        p.requiresCall,
        p.ctaLink,
      ]),
    ).toEqual([
      ["essentials", "Essentials", 250000, "2-3 weeks", "$2,500", false, false, "/booking?tier=essentials"],
      ["growth", "Growth", 850000, "6-8 weeks", "$8,500", true, false, "/booking?tier=growth"],
      ["custom", "Custom", 1500000, "10-12 weeks", "$15k-25k+", false, true, "/booking?tier=custom"],
    ]);
  });
  it("lists each tier's key inclusions", () => {
    expect(getPackage("essentials").included).toEqual(expect.arrayContaining(["4-6 pages", "1 revision round"]));
    expect(getPackage("growth").included).toEqual(
      expect.arrayContaining([
        "8-12 custom pages",
        "2 design concepts",
        "E-commerce up to 25 products or online booking",
        "2 revision rounds",
      ]),
    );
    expect(getPackage("custom").included).toEqual(
      expect.arrayContaining([
        "15-25+ pages",
        "3+ design concepts",
        "100+ products",
        "Unlimited revisions",
        "Free 45-minute discovery call",
      ]),
    );
  });
  it("has the deposits and payment schedule", () => {
    expect(packages.map((p) => [p.id, p.deposit.amount, p.deposit.percent])).toEqual([
      ["essentials", 50000, 20],
      ["growth", 250000, 30],
      ["custom", 0, 0],
    ]);
    expect(samplePaymentTerms.stages.map((s) => s.percent)).toEqual([20, 50, 30]);
    expect(samplePaymentTerms.stages.reduce((sum, s) => sum + s.percent, 0)).toBe(100);
    expect(invoiceTerms(samplePaymentTerms)).toBe("Invoices are due within 3 business days.");
    expect(PAYMENT_METHODS).toEqual(["Cards", "Apple Pay", "Google Pay"]);
  });
  it("has the exact add-ons with their ids, prices and limits", () => {
    const view = (id: PackageId) => getPackage(id).addOns.map((a) => [a.id, a.price, a.allowMultiple, a.maxQuantity]);
    expect(view("essentials")).toEqual([
      ["additional-page", 25000, true, 10],
      ["second-revision", 40000, false, 1],
      ["content-writing", 20000, true, 10],
      ["blog-setup", 50000, false, 1],
    ]);
    expect(view("growth")).toEqual([
      ["additional-concept", 100000, true, 3],
      ["extra-skus", 80000, true, 10],
      ["crm-integration", 200000, false, 1],
      ["content-strategy", 120000, false, 1],
      ["third-revision", 80000, false, 1],
    ]);
    expect(view("custom")).toEqual([
      ["project-manager", 250000, false, 1],
      ["retainer-90", 200000, false, 1],
      ["training", 150000, false, 1],
    ]);
  });
  it("looks up packages and add-ons", () => {
    expect(isPackageId("growth")).toBe(true);
    expect(isPackageId("gold")).toBe(false);
    expect(isPackageId(undefined)).toBe(false);
    expect(getPackage("gold")).toBeUndefined();
    expect(getAddOn("essentials", "blog-setup")?.price).toBe(50000);
    expect(getAddOn("essentials", "crm-integration")).toBeUndefined();
    expect(bookableAddOns("essentials").map((a) => a.id)).toEqual([
      "additional-page",
      "second-revision",
      "content-writing",
      "blog-setup",
    ]);
    expect(bookableAddOns("growth")).toHaveLength(5);
    expect(bookableAddOns("custom")).toEqual([]);
  });
});

describe("promotions", () => {
  it("has the one promotion exactly, found by package when enabled", () => {
    expect(C.promotions).toHaveLength(1);
    const p = getPromotion("essentials");
    expect(p).toMatchObject({
      enabled: true,
      packageId: "essentials",
      discountPercent: 40,
      badge: "40% OFF",
      title: "Get 40% off Essentials Package",
      requirement: "Allow us to showcase your website in our portfolio",
      ctaText: "Yes! Feature my site & save 40%",
    });
    expect(getPromotion("growth")).toBeUndefined();
    expect(getPromotion("custom")).toBeUndefined();
  });
  it("returns nothing when the promotion is disabled", () => {
    expect(getPromotion("essentials", withPromotion({ enabled: false }))).toBeUndefined();
    expect(getPromotion("essentials", withPromotion({ enabled: true }))?.discountPercent).toBe(40);
  });
  it("gives the booking flow's campaign view", () => {
    expect(getCampaign("essentials")).toMatchObject({
      badge: "40% OFF",
      title: "Get 40% off Essentials Package",
      requirement: "Allow us to showcase your website in our portfolio",
      discountPercent: 40,
    });
    expect(getCampaign("growth")).toBeUndefined();
  });
});

describe("totals", () => {
  it("are the base price of each tier with nothing added", () => {
    expect(computeTotal(sel({ packageId: "essentials" }))).toEqual({
      base: 250000,
      lines: [],
      addOnsTotal: 0,
      subtotal: 250000,
      discountPercent: 0,
      discount: 0,
      total: 250000,
    });
    expect(computeTotal(sel({ packageId: "growth" })).total).toBe(850000);
    expect(computeTotal(sel({ packageId: "custom" })).total).toBe(1500000);
  });
  it("Custom has no computed price; the others do", () => {
    expect(hasComputedPrice("custom")).toBe(false);
    expect(hasComputedPrice("essentials")).toBe(true);
    expect(hasComputedPrice("growth")).toBe(true);
  });
  it("take 40% off Essentials when the campaign is accepted", () => {
    const r = computeTotal(sel({ packageId: "essentials", campaignAccepted: true }));
    expect(r.discountPercent).toBe(40);
    expect(r.discount).toBe(100000);
    expect(r.total).toBe(150000);
    expect(formatDollars(r.total, { decimals: 2 })).toBe("$1,500.00");
  });
  it("discount base plus add-ons: Essentials + 2 additional pages + campaign = 180000", () => {
    const s = sel({
      packageId: "essentials",
      selectedAddOns: ["additional-page"],
      addOnQuantities: { "additional-page": 2 },
      campaignAccepted: true,
    });
    const r = computeTotal(s);
    expect(r.lines).toEqual([{ addOn: addOn("essentials", "additional-page"), quantity: 2, amount: 50000 }]);
    expect(r.addOnsTotal).toBe(50000);
    expect(r.subtotal).toBe(300000);
    expect(r.discount).toBe(120000);
    expect(r.total).toBe(180000);
  });
  it("add price × quantity for every selected add-on", () => {
    const e = sel({
      packageId: "essentials",
      selectedAddOns: ["additional-page", "second-revision", "content-writing", "blog-setup"],
      addOnQuantities: { "additional-page": 10, "second-revision": 1, "content-writing": 3, "blog-setup": 1 },
    });
    expect(computeTotal(e).total).toBe(250000 + 250000 + 40000 + 60000 + 50000);
    const g = sel({
      packageId: "growth",
      selectedAddOns: ["additional-concept", "crm-integration", "extra-skus"],
      addOnQuantities: { "additional-concept": 3, "crm-integration": 1, "extra-skus": 4 },
      campaignAccepted: true,
    });
    const r = computeTotal(g);
    expect(r.discountPercent).toBe(0);
    expect(r.discount).toBe(0);
    expect(r.total).toBe(850000 + 300000 + 200000 + 320000);
  });
  it("ignore the campaign when its promotion is disabled", () => {
    const off = withPromotion({ enabled: false });
    const r = computeTotal(sel({ packageId: "essentials", campaignAccepted: true }), { catalogue: off });
    expect(r.discount).toBe(0);
    expect(r.total).toBe(250000);
  });
  it("round the discount to whole cents", () => {
    const odd = withPromotion({ discountPercent: 33 });
    const s = sel({
      packageId: "essentials",
      selectedAddOns: ["content-writing"],
      addOnQuantities: { "content-writing": 1 },
      campaignAccepted: true,
    });
    const r = computeTotal(s, { catalogue: odd });
    expect(r.subtotal).toBe(270000);
    expect(r.discount).toBe(89100);
    expect(r.total).toBe(180900);
    // 250000 × 33.333 / 100 = 83332.5 → rounds to 83333
    const fractional = withPromotion({ discountPercent: 33.333 });
    const r2 = computeTotal(sel({ packageId: "essentials", campaignAccepted: true }), { catalogue: fractional });
    expect(r2.discount).toBe(83333);
    expect(r2.total).toBe(166667);
    expect(Number.isInteger(r2.total)).toBe(true);
  });
  it("Custom adds its add-ons on the packages page but not in the booking flow", () => {
    const s = sel({
      packageId: "custom",
      selectedAddOns: ["project-manager", "training"],
      addOnQuantities: { "project-manager": 1, training: 1 },
    });
    expect(computeTotal(s, { context: "packages" }).total).toBe(1500000 + 250000 + 150000);
    expect(computeTotal(s, { context: "booking" }).total).toBe(1500000);
  });
});

describe("quantities and normalisation", () => {
  it("clamp every add-on to 1..max, single add-ons to 1", () => {
    for (const tier of packages) {
      for (const a of tier.addOns) {
        expect(clampQuantity(a, 0)).toBe(1);
        expect(clampQuantity(a, -5)).toBe(1);
        expect(clampQuantity(a, 1)).toBe(1);
        expect(clampQuantity(a, a.maxQuantity)).toBe(a.allowMultiple ? a.maxQuantity : 1);
        expect(clampQuantity(a, 999)).toBe(a.allowMultiple ? a.maxQuantity : 1);
      }
    }
    expect(clampQuantity(addOn("essentials", "additional-page"), 11)).toBe(10);
    expect(clampQuantity(addOn("essentials", "additional-page"), 7)).toBe(7);
    expect(clampQuantity(addOn("essentials", "blog-setup"), 5)).toBe(1);
    expect(clampQuantity(addOn("growth", "additional-concept"), 4)).toBe(3);
    expect(clampQuantity(addOn("growth", "extra-skus"), 10)).toBe(10);
    expect(clampQuantity(addOn("essentials", "additional-page"), Number.NaN)).toBe(1);
  });
  it("default the maximum to 10 when an add-on has none", () => {
    const noMax = { ...addOn("essentials", "additional-page"), maxQuantity: 0 };
    expect(clampQuantity(noMax, 50)).toBe(10);
  });
  it("drop unknown add-ons, duplicates and Custom add-ons in the booking flow", () => {
    const s = sel({
      packageId: "custom",
      selectedAddOns: ["training", "nope", "training"],
      addOnQuantities: { training: 1 },
    });
    expect(normalizeSelection(s, { context: "packages" })).toEqual(
      sel({ packageId: "custom", selectedAddOns: ["training"], addOnQuantities: { training: 1 } }),
    );
    expect(normalizeSelection(s, { context: "booking" }).selectedAddOns).toEqual([]);
    const cross = sel({
      packageId: "essentials",
      selectedAddOns: ["crm-integration", "blog-setup"],
      addOnQuantities: { "crm-integration": 1, "blog-setup": 1 },
    });
    expect(normalizeSelection(cross, { context: "booking" }).selectedAddOns).toEqual(["blog-setup"]);
  });
  it("clamp quantities, give missing ones 1 and drop a campaign the package does not have", () => {
    const s = sel({
      packageId: "growth",
      selectedAddOns: ["additional-concept", "crm-integration"],
      addOnQuantities: { "additional-concept": 9 },
      campaignAccepted: true,
    });
    expect(normalizeSelection(s, { context: "booking" })).toEqual({
      packageId: "growth",
      selectedAddOns: ["additional-concept", "crm-integration"],
      addOnQuantities: { "additional-concept": 3, "crm-integration": 1 },
      campaignAccepted: false,
    });
    expect(normalizeSelection(sel({ packageId: "essentials", campaignAccepted: true })).campaignAccepted).toBe(true);
  });
});

describe("state transitions", () => {
  it("toggle on sets quantity 1, toggle off removes", () => {
    let s = toggleAddOn(sel({ packageId: "essentials" }), "additional-page");
    expect(s.selectedAddOns).toEqual(["additional-page"]);
    expect(s.addOnQuantities).toEqual({ "additional-page": 1 });
    s = toggleAddOn(s, "additional-page");
    expect(s.selectedAddOns).toEqual([]);
    expect(s.addOnQuantities).toEqual({});
  });
  it("the stepper clamps above the maximum and removes at the minimum", () => {
    let s = toggleAddOn(sel({ packageId: "essentials" }), "additional-page");
    s = setQuantity(s, "additional-page", 3);
    expect(s.addOnQuantities["additional-page"]).toBe(3);
    s = setQuantity(s, "additional-page", 11);
    expect(s.addOnQuantities["additional-page"]).toBe(10);
    s = setQuantity(s, "additional-page", 0);
    expect(s.selectedAddOns).toEqual([]);
    expect(s.addOnQuantities).toEqual({});
    expect(
      setQuantity(sel({ packageId: "growth" }), "additional-concept", 7).addOnQuantities["additional-concept"],
    ).toBe(3);
    const untouched = sel({ packageId: "growth" });
    expect(setQuantity(untouched, "not-an-add-on", 2)).toBe(untouched);
  });
  it("choosing another package clears add-ons, quantities and the campaign", () => {
    const s = setQuantity(
      toggleAddOn(sel({ packageId: "essentials", campaignAccepted: true }), "additional-page"),
      "additional-page",
      4,
    );
    expect(selectPackage(s, "essentials")).toBe(s);
    expect(selectPackage(s, "growth")).toEqual({
      packageId: "growth",
      selectedAddOns: [],
      addOnQuantities: {},
      campaignAccepted: false,
    });
  });
});

describe("query string", () => {
  it("round-trips a selection", () => {
    const s = sel({
      packageId: "essentials",
      selectedAddOns: ["additional-page", "blog-setup"],
      addOnQuantities: { "additional-page": 3, "blog-setup": 1 },
      campaignAccepted: true,
    });
    const q = selectionToQuery(s);
    expect(q).toBe("tier=essentials&addOns=additional-page%2Cblog-setup&qty.additional-page=3&campaign=1");
    expect(parseSelectionFromQuery(new URLSearchParams(q))).toEqual(s);
    expect(selectionToQuery(sel({ packageId: "growth" }))).toBe("tier=growth");
    expect(parseSelectionFromQuery(new URLSearchParams("tier=growth"))).toEqual(sel({ packageId: "growth" }));
  });
  it("rejects a missing or unknown tier and cleans what it reads", () => {
    expect(parseSelectionFromQuery(new URLSearchParams("tier=gold"))).toBeUndefined();
    expect(parseSelectionFromQuery(new URLSearchParams(""))).toBeUndefined();
    const dirty = parseSelectionFromQuery(
      new URLSearchParams("tier=growth&addOns=bogus,additional-concept&qty.additional-concept=99&campaign=1"),
    );
    expect(dirty).toEqual({
      packageId: "growth",
      selectedAddOns: ["additional-concept"],
      addOnQuantities: { "additional-concept": 3 },
      campaignAccepted: false,
    });
    expect(parseSelectionFromQuery(new URLSearchParams("tier=custom&addOns=training"))?.selectedAddOns).toEqual([]);
    expect(
      parseSelectionFromQuery(new URLSearchParams("tier=custom&addOns=training"), "packages")?.selectedAddOns,
    ).toEqual(["training"]);
  });
  it("reads repeated addOn fields posted by the packages form", () => {
    const form = new URLSearchParams("tier=growth&addOn=crm-integration&addOn=extra-skus&qty.extra-skus=2");
    expect(parseSelectionFromQuery(form)?.addOnQuantities).toEqual({ "crm-integration": 1, "extra-skus": 2 });
  });
});

describe("saved package selection", () => {
  const ok = {
    packageId: "growth",
    selectedAddOns: ["crm-integration"],
    addOnQuantities: { "crm-integration": 1 },
    campaignAccepted: false,
    packageTotal: 1050000,
    timestamp: 1761264000000,
  };

  it("accepts the stored shape, as JSON text or as a value", () => {
    expect(parseSavedSelection(JSON.stringify(ok))).toEqual(ok);
    expect(parseSavedSelection(ok)).toEqual(ok);
    // Keys it does not know are dropped.
    expect(parseSavedSelection({ ...ok, injected: "<script>" })).toEqual(ok);
  });
  it("ignores corrupt data and logs a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(parseSavedSelection("{not json")).toBeUndefined();
    expect(parseSavedSelection({ packageId: "gold" })).toBeUndefined();
    expect(parseSavedSelection({ ...ok, addOnQuantities: { "crm-integration": "1" } })).toBeUndefined();
    expect(parseSavedSelection({ ...ok, timestamp: undefined })).toBeUndefined();
    expect(parseSavedSelection("null")).toBeUndefined();
    expect(parseSavedSelection(42)).toBeUndefined();
    expect(parseSavedSelection({ ...ok, selectedAddOns: [1] })).toBeUndefined();
    expect(parseSavedSelection({ ...ok, addOnQuantities: [1] })).toBeUndefined();
    expect(parseSavedSelection({ ...ok, campaignAccepted: "yes" })).toBeUndefined();
    expect(parseSavedSelection([ok])).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(10);
  });
  it("nothing saved (storage answers null) is no selection, without a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    warn.mockClear();
    expect(parseSavedSelection(null)).toBeUndefined();
    expect(parseSavedSelection(undefined)).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("prices are data (issue 29)", () => {
  const edited = cat.catalogueFrom({
    packages: samplePackages.map((p) =>
      p.id === "essentials"
        ? { ...p, basePrice: 300000, addOns: p.addOns.map((a) => (a.id === "blog-setup" ? { ...a, price: 65000 } : a)) }
        : p.id === "growth"
          ? { ...p, offered: false }
          : p,
    ),
    promotion: { ...samplePromotion, discountPercent: 25 },
  });

  it("totals read the saved prices of the package and its add-ons", () => {
    const s = sel({ packageId: "essentials", selectedAddOns: ["blog-setup"], addOnQuantities: { "blog-setup": 1 } });
    expect(computeTotalIn(s, { catalogue: edited }).total).toBe(300000 + 65000);
    expect(computeTotalIn({ ...s, campaignAccepted: true }, { catalogue: edited }).total).toBe(
      365000 - Math.round(365000 * 0.25),
    );
    expect(cat.getPackage(edited, "essentials")?.priceDisplay).toBe("$3,000");
  });

  it("writes the promotion's percent once: the badge, title and call to action say the saved number", () => {
    expect(cat.getPromotion(edited, "essentials")).toMatchObject({
      discountPercent: 25,
      badge: "25% OFF",
      title: "Get 25% off Essentials Package",
      ctaText: "Yes! Feature my site & save 25%",
    });
  });

  it("a package that is not offered cannot be chosen, from /packages' query either", () => {
    expect(cat.offeredPackages(edited).map((p) => p.id)).toEqual(["essentials", "custom"]);
    expect(cat.isOfferedPackage(edited, "growth")).toBe(false);
    expect(parseSelectionFromQueryIn(new URLSearchParams("tier=growth"), edited)).toBeUndefined();
    expect(parseSelectionFromQueryIn(new URLSearchParams("tier=essentials"), edited)?.packageId).toBe("essentials");
  });

  it("a promotion on a package that is not offered is shown nowhere", () => {
    const c = cat.catalogueFrom({ packages: samplePackages, promotion: { ...samplePromotion, packageId: "growth" } });
    expect(cat.getPromotion(c, "growth")?.title).toBe("Get 40% off Growth Package");
    const hidden = cat.catalogueFrom({
      packages: samplePackages.map((p) => (p.id === "growth" ? { ...p, offered: false } : p)),
      promotion: { ...samplePromotion, packageId: "growth" },
    });
    expect(cat.getPromotion(hidden, "growth")).toBeUndefined();
  });
});
