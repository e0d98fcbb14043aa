import type { PackageId } from "~/content/packages";

/** The booking form state of SPEC.md §3 (files excluded: they live on the server). */
export type BookingFormState = {
  selectedPackage: PackageId | "";
  name: string;
  email: string;
  company: string;
  phone: string;
  websiteUrl: string;
  isNewSite: boolean;
  primaryGoal: string;
  targetAudience: string;
  inspiration1: string;
  inspiration2: string;
  inspiration3: string;
  mustHaveFeatures: string;
  niceToHaveFeatures: string;
  preferredStartDate: string;
  timelineFlexibility: "flexible" | "rush";
  selectedAddOns: string[];
  addOnQuantities: Record<string, number>;
  campaignAccepted: boolean;
  source: string;
  /** First-touch attribution as a query string: utm_source, utm_medium, utm_campaign, referrer (see originOf). */
  origin: string;
};

export type UploadedFile = { name: string; size: number; path: string };

export const TOTAL_STEPS = 6;
export const STEP_TITLES = [
  "Package & contact",
  "Project details",
  "Inspiration & features",
  "Timeline & add-ons",
  "Brand assets",
  "Review & schedule",
] as const;

export function emptyFormState(): BookingFormState {
  return {
    selectedPackage: "",
    name: "",
    email: "",
    company: "",
    phone: "",
    websiteUrl: "",
    isNewSite: false,
    primaryGoal: "",
    targetAudience: "",
    inspiration1: "",
    inspiration2: "",
    inspiration3: "",
    mustHaveFeatures: "",
    niceToHaveFeatures: "",
    preferredStartDate: "",
    timelineFlexibility: "flexible",
    selectedAddOns: [],
    addOnQuantities: {},
    campaignAccepted: false,
    source: "",
    origin: "",
  };
}

/** SPEC.md §4 step completeness; steps 5 and 6 are always complete. */
export function isStepComplete(step: number, s: BookingFormState): boolean {
  switch (step) {
    case 1:
      return Boolean(s.selectedPackage && s.name && s.email && s.company);
    case 2:
      return Boolean(s.primaryGoal && s.targetAudience);
    case 3:
      return Boolean(s.inspiration1 && s.mustHaveFeatures);
    case 4:
      return Boolean(s.preferredStartDate && s.timelineFlexibility);
    default:
      return true;
  }
}

/** The first step whose earlier steps are not all complete, i.e. the furthest step one may open. */
export function furthestAllowedStep(s: BookingFormState, completed: number[] = []): number {
  for (let step = 1; step < TOTAL_STEPS; step++) {
    if (!isStepComplete(step, s) || (step <= 4 && !completed.includes(step))) return step;
  }
  return TOTAL_STEPS;
}

export function clampStep(value: unknown): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= TOTAL_STEPS ? n : 1;
}

export const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign"] as const;
export type Attribution = {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  referrer: string | null;
};

/** A draft's first-touch attribution (its `origin` query string) as fields. */
export function parseOrigin(origin: string): Attribution {
  const p = new URLSearchParams(origin);
  const get = (k: string) => p.get(k) || null;
  return {
    utmSource: get("utm_source"),
    utmMedium: get("utm_medium"),
    utmCampaign: get("utm_campaign"),
    referrer: get("referrer"),
  };
}
