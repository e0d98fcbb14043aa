/** The three fixed-price tiers and their add-ons (SPEC.md §9). Every amount is in cents. */
export const PACKAGE_IDS = ["essentials", "growth", "custom"] as const;
export type PackageId = (typeof PACKAGE_IDS)[number];

export type AddOn = {
  id: string;
  name: string;
  description: string;
  price: number;
  allowMultiple: boolean;
  maxQuantity: number;
};

/**
 * A tier as the owner edits it in the console (Settings → Packages) and as it is stored. The three
 * ids are fixed (bookings and links name them: `/booking?tier=growth`); everything else is data.
 */
export type PackageTierData = {
  id: PackageId;
  name: string;
  /** Cents. Custom's is the "from" price; it is never computed into a total. */
  basePrice: number;
  /** Shown instead of the price when set ("$15k-25k+"); empty: the price itself. */
  priceLabel: string;
  timeline: string;
  description: string;
  recommended: boolean;
  /** Shown on /packages, the home page and step 1 of the booking; at least one tier is offered. */
  offered: boolean;
  included: string[];
  notIncluded: string[];
  addOns: AddOn[];
  cta: string;
  deposit: { amount: number; percent: number };
};

/** A tier as pages read it: the data plus what follows from it. */
export type PackageTier = PackageTierData & {
  priceDisplay: string;
  ctaLink: string;
  /** Custom is quoted after a call: no computed price, no add-ons in the booking flow. */
  requiresCall: boolean;
};

export const DEFAULT_MAX_QUANTITY = 10;

const single = (id: string, name: string, description: string, price: number): AddOn => ({
  id,
  name,
  description,
  price,
  allowMultiple: false,
  maxQuantity: 1,
});
const multiple = (
  id: string,
  name: string,
  description: string,
  price: number,
  maxQuantity = DEFAULT_MAX_QUANTITY,
): AddOn => ({
  id,
  name,
  description,
  price,
  allowMultiple: true,
  maxQuantity,
});

/** The sample studio's tiers (SPEC.md §9): what a new data folder starts with. */
export const samplePackages: PackageTierData[] = [
  {
    id: "essentials",
    name: "Essentials",
    basePrice: 250000,
    priceLabel: "",
    timeline: "2-3 weeks",
    description:
      "A polished, fast website for a focused offer: everything a young company needs to look credible and convert.",
    recommended: false,
    offered: true,
    included: [
      "4-6 pages",
      "Custom design on a proven layout system",
      "Mobile-first, responsive build",
      "1 revision round",
      "Contact form and basic SEO",
      "Launch and hosting setup",
    ],
    notIncluded: ["E-commerce", "Copywriting", "Multiple design concepts"],
    addOns: [
      multiple("additional-page", "Additional page", "One more designed and built page.", 25000),
      single("second-revision", "Second revision round", "Another full round of feedback and changes.", 40000),
      multiple("content-writing", "Content writing per page", "Conversion-focused copy written for a page.", 20000),
      single("blog-setup", "Blog setup", "A blog with categories, ready for your first posts.", 50000),
    ],
    cta: "Start with Essentials",
    deposit: { amount: 50000, percent: 20 },
  },
  {
    id: "growth",
    name: "Growth",
    basePrice: 850000,
    priceLabel: "",
    timeline: "6-8 weeks",
    description:
      "A fully custom site for companies ready to scale: more pages, more concepts, commerce or booking built in.",
    recommended: true,
    offered: true,
    included: [
      "8-12 custom pages",
      "2 design concepts",
      "E-commerce up to 25 products or online booking",
      "2 revision rounds",
      "30 days of support after launch",
      "Analytics and conversion tracking",
    ],
    notIncluded: ["Large catalogues (100+ products)", "Ongoing retainer"],
    addOns: [
      multiple(
        "additional-concept",
        "Additional design concept",
        "One more distinct design direction to choose from.",
        100000,
        3,
      ),
      multiple("extra-skus", "Extra 10 product SKUs", "Ten more products set up in the shop.", 80000),
      single("crm-integration", "CRM integration", "Forms and customers synced with your CRM.", 200000),
      single(
        "content-strategy",
        "Content strategy workshop",
        "A half-day workshop to plan messaging and content.",
        120000,
      ),
      single("third-revision", "Third revision round", "A third full round of feedback and changes.", 80000),
    ],
    cta: "Choose Growth",
    deposit: { amount: 250000, percent: 30 },
  },
  {
    id: "custom",
    name: "Custom",
    basePrice: 1500000,
    priceLabel: "$15k-25k+",
    timeline: "10-12 weeks",
    description: "For ambitious projects with complex needs: large catalogues, integrations and a long-term partner.",
    recommended: false,
    offered: true,
    included: [
      "15-25+ pages",
      "3+ design concepts",
      "100+ products",
      "Unlimited revisions",
      "60 days of support after launch",
      "Free 45-minute discovery call",
    ],
    notIncluded: [],
    addOns: [
      single("project-manager", "Project manager", "A dedicated project manager for the whole engagement.", 250000),
      single("retainer-90", "90-day retainer", "Ninety days of improvements and support after launch.", 200000),
      single("training", "Training", "Hands-on training for your team to run the site.", 150000),
    ],
    cta: "Book a discovery call",
    deposit: { amount: 0, percent: 0 },
  },
];

export const PAYMENT_SCHEDULE = [
  { percent: 20, label: "Upfront", description: "to reserve your start date" },
  { percent: 50, label: "Mid-project", description: "at design approval" },
  { percent: 30, label: "Final delivery", description: "before launch" },
] as const;
export const INVOICE_TERMS = "Invoices are due within 3 business days.";
export const PAYMENT_METHODS = ["Cards", "Apple Pay", "Google Pay"] as const;

export function isPackageId(value: unknown): value is PackageId {
  return typeof value === "string" && (PACKAGE_IDS as readonly string[]).includes(value);
}
