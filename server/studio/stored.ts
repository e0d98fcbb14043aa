import { z } from "zod";
import { sampleCaseStudies, type CaseStudy } from "#domain/sample/case-studies";
import { sampleLegal, type LegalData } from "#domain/sample/legal";
import { PACKAGE_IDS, type PackageTierData } from "#domain/packages";
import { samplePackages } from "#domain/sample/packages";
import { samplePromotion, type PromotionData } from "#domain/promotions";
import { sampleIdentity } from "#domain/sample/site";
import { sampleTestimonials, type Testimonial } from "#domain/sample/testimonials";
import { type SettingsSection } from "#domain/studio-settings";
import type { PaymentTerms } from "#domain/payment-plan";
import { samplePaymentTerms } from "#domain/sample/payments";
import { webUrlProblem } from "#domain/web-url";
import { calendarStored, defaultCalendar, type CalendarSettings } from "#domain/calendar-settings";
import { contractStored, type ContractSettings } from "#domain/contract-settings";
import { sampleContract } from "#domain/sample/contract";

/**
 * The shapes of `studio_settings`' rows as a save wrote them, read back through zod, and the sample
 * studio a new data folder starts with (studio.server.ts reads and writes through them).
 */

// ---------- Stored shapes (what a save wrote), read through zod ----------

const str = z.string();
const strings = z.array(z.string());

const identityStored = z
  .object({
    name: str,
    designer: str,
    role: str,
    bio: strings,
    contactEmail: str,
    socialUrl: str,
    socialLabel: str,
    footerLine: str,
    trustedBy: strings,
    // One saved before links were checked as URLs that fails the rule now reads as none (CALENDLY_URL's).
    calendarUrl: str.transform((v) => (v && webUrlProblem(v) ? "" : v)),
  })
  .partial();

const addOnStored = z.object({
  id: str,
  name: str,
  description: str,
  price: z.number().int().nonnegative(),
  allowMultiple: z.boolean(),
  maxQuantity: z.number().int().positive(),
});

const tierStored = z.object({
  id: z.enum(PACKAGE_IDS),
  name: str,
  basePrice: z.number().int().nonnegative(),
  priceLabel: str,
  timeline: str,
  description: str,
  recommended: z.boolean(),
  offered: z.boolean(),
  included: strings,
  notIncluded: strings,
  addOns: z.array(addOnStored),
  cta: str,
  deposit: z.object({ amount: z.number().int(), percent: z.number() }),
});

const packagesStored = z.object({ packages: z.array(tierStored).length(PACKAGE_IDS.length) });

const promotionStored = z.object({
  enabled: z.boolean(),
  name: str,
  packageId: z.enum(PACKAGE_IDS),
  discountPercent: z.number().int().min(0).max(100),
  badge: str,
  title: str,
  description: str,
  requirement: str,
  ctaText: str,
});

const caseStudyStored = z.object({
  id: str,
  title: str,
  client: str,
  industry: str,
  challenge: str,
  solution: str,
  result: str,
  tags: strings,
  metrics: z.array(z.object({ label: str, value: str })),
  gradient: z.tuple([str, str]),
  images: z.array(z.object({ url: str, alt: str })),
});

const caseStudiesStored = z.object({ items: z.array(caseStudyStored) });
const testimonialsStored = z.object({
  items: z.array(z.object({ id: str, quote: str, name: str, role: str })),
});
const legalStored = z.object({ terms: str, privacy: str });
const paymentsStored = z.object({
  stages: z.array(z.object({ label: str, percent: z.number().int().min(1).max(100), description: str })).min(1),
  dueBusinessDays: z.number().int().min(1).max(60),
});

export type StoredSections = {
  studio: z.infer<typeof identityStored>;
  packages: { packages: PackageTierData[] };
  promotion: PromotionData;
  caseStudies: { items: CaseStudy[] };
  testimonials: { items: Testimonial[] };
  legal: LegalData;
  payments: PaymentTerms;
  calendar: CalendarSettings;
  contract: ContractSettings;
};

export const STORED: { [S in SettingsSection]: z.ZodType<StoredSections[S]> } = {
  studio: identityStored,
  packages: packagesStored,
  promotion: promotionStored,
  caseStudies: caseStudiesStored,
  testimonials: testimonialsStored,
  legal: legalStored,
  payments: paymentsStored,
  calendar: calendarStored,
  contract: contractStored,
};

/** What a new data folder's sections hold: the sample studio. */
export const SAMPLE: StoredSections = {
  studio: sampleIdentity,
  packages: { packages: samplePackages },
  promotion: samplePromotion,
  caseStudies: { items: sampleCaseStudies },
  testimonials: { items: sampleTestimonials },
  legal: sampleLegal,
  payments: samplePaymentTerms,
  // A new data folder's own zone and provider are read from the environment (studio.server.ts).
  calendar: defaultCalendar("UTC"),
  contract: sampleContract,
};
