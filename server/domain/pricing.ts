/**
 * Pricing rules, pure and shared by the browser and the server. All amounts are cents.
 *
 * total = base + Σ add-on price × quantity − round(subtotal × campaign percent / 100) when the
 * campaign is accepted. Quantities run from 1 to the add-on's maximum (default 10; single
 * add-ons have 1). Choosing another package clears add-ons and the campaign.
 *
 * Every rule reads the studio's saved catalogue (`Catalogue`, passed in): prices are data.
 *
 * Query-string form of a selection (packages page → booking flow, without JavaScript):
 *   tier=<packageId>&addOns=<id>,<id>&qty.<id>=<n>&campaign=1
 * The packages form also posts `addOn=<id>` (repeated) and `qty.<id>`, which parse the same.
 */
import { isPackageId, type AddOn, type PackageId } from "./packages";
import { DEFAULT_MAX_QUANTITY, getPackage, getPromotion, type Catalogue } from "./catalogue";

export type Selection = {
  packageId: PackageId;
  selectedAddOns: string[];
  addOnQuantities: Record<string, number>;
  campaignAccepted: boolean;
};

export type PricingContext = "packages" | "booking";
export type PricingOptions = { catalogue: Catalogue; context?: PricingContext };

export function emptySelection(packageId: PackageId): Selection {
  return { packageId, selectedAddOns: [], addOnQuantities: {}, campaignAccepted: false };
}

function maxOf(addOn: AddOn): number {
  return addOn.allowMultiple ? addOn.maxQuantity || DEFAULT_MAX_QUANTITY : 1;
}

export function clampQuantity(addOn: AddOn, quantity: number): number {
  const q = Number.isFinite(quantity) ? Math.trunc(quantity) : 1;
  return Math.min(maxOf(addOn), Math.max(1, q));
}

function offeredAddOns(catalogue: Catalogue, packageId: PackageId, context: PricingContext): AddOn[] {
  const tier = getPackage(catalogue, packageId);
  if (!tier || (context === "booking" && tier.requiresCall)) return [];
  return tier.addOns;
}

/** Drops unknown add-ons, clamps quantities and drops a campaign the package does not have. */
export function normalizeSelection(sel: Selection, opts: PricingOptions): Selection {
  const context = opts.context ?? "packages";
  const offered = offeredAddOns(opts.catalogue, sel.packageId, context);
  const selectedAddOns: string[] = [];
  const addOnQuantities: Record<string, number> = {};
  for (const id of sel.selectedAddOns) {
    const addOn = offered.find((a) => a.id === id);
    if (!addOn || selectedAddOns.includes(id)) continue;
    selectedAddOns.push(id);
    addOnQuantities[id] = clampQuantity(addOn, sel.addOnQuantities[id] ?? 1);
  }
  const campaignAccepted = Boolean(sel.campaignAccepted && getPromotion(opts.catalogue, sel.packageId));
  return { packageId: sel.packageId, selectedAddOns, addOnQuantities, campaignAccepted };
}

export type PriceBreakdown = {
  base: number;
  lines: { addOn: AddOn; quantity: number; amount: number }[];
  addOnsTotal: number;
  subtotal: number;
  discountPercent: number;
  discount: number;
  total: number;
};

export function computeTotal(sel: Selection, opts: PricingOptions): PriceBreakdown {
  const s = normalizeSelection(sel, opts);
  const tier = getPackage(opts.catalogue, s.packageId);
  if (!tier) return { base: 0, lines: [], addOnsTotal: 0, subtotal: 0, discountPercent: 0, discount: 0, total: 0 };
  const lines = s.selectedAddOns.map((id) => {
    const addOn = tier.addOns.find((a) => a.id === id)!;
    const quantity = s.addOnQuantities[id] ?? 1;
    return { addOn, quantity, amount: addOn.price * quantity };
  });
  const addOnsTotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const subtotal = tier.basePrice + addOnsTotal;
  const promo = s.campaignAccepted ? getPromotion(opts.catalogue, s.packageId) : undefined;
  const discountPercent = promo?.discountPercent ?? 0;
  const discount = Math.round((subtotal * discountPercent) / 100);
  return { base: tier.basePrice, lines, addOnsTotal, subtotal, discountPercent, discount, total: subtotal - discount };
}

/** Custom is quoted after a call ("$15k-25k+"), never computed. */
export function hasComputedPrice(packageId: PackageId): boolean {
  return packageId !== "custom";
}

export function selectPackage(sel: Selection, packageId: PackageId): Selection {
  return sel.packageId === packageId ? sel : emptySelection(packageId);
}

export function toggleAddOn(sel: Selection, addOnId: string): Selection {
  if (sel.selectedAddOns.includes(addOnId)) {
    const { [addOnId]: _removed, ...rest } = sel.addOnQuantities;
    return { ...sel, selectedAddOns: sel.selectedAddOns.filter((id) => id !== addOnId), addOnQuantities: rest };
  }
  return {
    ...sel,
    selectedAddOns: [...sel.selectedAddOns, addOnId],
    addOnQuantities: { ...sel.addOnQuantities, [addOnId]: 1 },
  };
}

/** Sets a quantity; below 1 removes the add-on, above its maximum clamps. */
export function setQuantity(sel: Selection, addOnId: string, quantity: number, catalogue: Catalogue): Selection {
  const addOn = getPackage(catalogue, sel.packageId)?.addOns.find((a) => a.id === addOnId);
  if (!addOn) return sel;
  if (quantity < 1) {
    return sel.selectedAddOns.includes(addOnId) ? toggleAddOn(sel, addOnId) : sel;
  }
  const selectedAddOns = sel.selectedAddOns.includes(addOnId) ? sel.selectedAddOns : [...sel.selectedAddOns, addOnId];
  return {
    ...sel,
    selectedAddOns,
    addOnQuantities: { ...sel.addOnQuantities, [addOnId]: clampQuantity(addOn, quantity) },
  };
}

export function setCampaign(sel: Selection, accepted: boolean): Selection {
  return { ...sel, campaignAccepted: accepted };
}

/** Reads a selection from a query string (or form data); undefined without a valid tier. */
export function parseSelectionFromQuery(
  params: URLSearchParams,
  catalogue: Catalogue,
  context: PricingContext = "booking",
): Selection | undefined {
  const tier = params.get("tier") ?? params.get("package");
  if (!isPackageId(tier) || !getPackage(catalogue, tier)?.offered) return undefined;
  const ids = [...(params.get("addOns") ?? "").split(","), ...params.getAll("addOn")]
    .map((s) => s.trim())
    .filter(Boolean);
  const addOnQuantities: Record<string, number> = {};
  for (const id of ids) {
    const q = Number(params.get(`qty.${id}`) ?? "1");
    addOnQuantities[id] = Number.isFinite(q) ? q : 1;
  }
  const campaign = params.get("campaign");
  return normalizeSelection(
    {
      packageId: tier,
      selectedAddOns: ids,
      addOnQuantities,
      campaignAccepted: campaign === "1" || campaign === "on" || campaign === "true",
    },
    { catalogue, context },
  );
}

export function selectionToQuery(sel: Selection): string {
  const p = new URLSearchParams({ tier: sel.packageId });
  if (sel.selectedAddOns.length) p.set("addOns", sel.selectedAddOns.join(","));
  for (const id of sel.selectedAddOns) {
    const q = sel.addOnQuantities[id] ?? 1;
    if (q !== 1) p.set(`qty.${id}`, String(q));
  }
  if (sel.campaignAccepted) p.set("campaign", "1");
  return p.toString();
}

export const SAVED_SELECTION_KEY = "packageSelection";

export type SavedSelection = {
  packageId: PackageId;
  selectedAddOns: string[];
  addOnQuantities: Record<string, number>;
  campaignAccepted: boolean;
  packageTotal: number;
  timestamp: number;
};

// Checked by hand rather than with zod: the packages page would otherwise load zod (15 KB
// gzipped) for this one object.
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
function isSavedSelection(v: unknown): v is SavedSelection {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const quantities = o.addOnQuantities;
  return (
    isPackageId(o.packageId) &&
    Array.isArray(o.selectedAddOns) &&
    o.selectedAddOns.every((x) => typeof x === "string") &&
    typeof quantities === "object" &&
    quantities !== null &&
    !Array.isArray(quantities) &&
    Object.values(quantities).every(isNumber) &&
    typeof o.campaignAccepted === "boolean" &&
    isNumber(o.packageTotal) &&
    isNumber(o.timestamp)
  );
}

/** The Saved package selection from browser storage; nothing saved is no selection, corrupt data is logged and ignored. */
export function parseSavedSelection(raw: unknown): SavedSelection | undefined {
  if (raw === null || raw === undefined) return undefined;
  try {
    const value = typeof raw === "string" ? (JSON.parse(raw) as unknown) : raw;
    if (isSavedSelection(value)) {
      const { packageId, selectedAddOns, addOnQuantities, campaignAccepted, packageTotal, timestamp } = value;
      return { packageId, selectedAddOns, addOnQuantities, campaignAccepted, packageTotal, timestamp };
    }
    console.warn("[pricing] ignoring corrupt saved package selection");
  } catch {
    console.warn("[pricing] ignoring corrupt saved package selection");
  }
  return undefined;
}
