import { DEFAULT_MAX_QUANTITY, type AddOn, type PackageTierData } from "../packages";

/*
 * The sample studio's tiers, in a module of their own: only the server (the first-run content) and
 * the tests import it, so no browser bundle carries the sample's words.
 */

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
  // duplicates: sample data, each package written out whole as the owner reads it in Settings
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
