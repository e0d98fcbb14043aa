import type { Category } from "#domain/categories";

export type SeedTemplate = {
  name: string;
  slug: string;
  tagline: string;
  description: string;
  category: Category;
  price: number;
  original_price: number | null;
  featured: boolean;
  features: string[];
  included: string[];
  tech_stack: string[];
  tags: string[];
  created_at: string;
};

const BASE_STACK = ["React", "TypeScript", "Tailwind CSS"];
const INCLUDED = [
  "React + TypeScript source",
  "Figma source file",
  "Tailwind CSS config",
  "Deployment guide",
  "Lifetime updates",
];

/**
 * The sample templates a new data folder starts with (once, issue 29): ten over all six categories,
 * prices in cents. They have no invented ratings, reviews or sales: the shop shows real figures.
 */
export const SEED_TEMPLATES: SeedTemplate[] = [
  // duplicates: sample data, each template written out whole as the shop shows it
  {
    name: "Atelier",
    slug: "atelier",
    tagline: "A quiet, image-led portfolio for designers and photographers",
    description:
      "Atelier puts your work first: full-bleed project pages, a calm editorial grid and typography that gets out of the way. Built for designers, photographers and studios who want their portfolio to feel curated, not templated.",
    category: "portfolio",
    price: 7900,
    original_price: null,
    featured: true,
    features: [
      "Editorial project grid",
      "Full-bleed case-study pages",
      "Lightbox gallery",
      "About and contact pages",
      "Dark mode",
      "SEO metadata per page",
    ],
    included: INCLUDED,
    tech_stack: [...BASE_STACK, "Remix"],
    tags: ["portfolio", "minimal", "photography", "editorial"],
    created_at: "2025-10-02T09:00:00.000Z",
  },
  {
    name: "Launchpad",
    slug: "launchpad",
    tagline: "A conversion-focused SaaS site with pricing, changelog and docs",
    description:
      "Launchpad is the marketing site a young SaaS needs on day one: a sharp hero, feature sections, a pricing table with monthly and yearly plans, a changelog and a docs starter. Every section is tuned for sign-ups.",
    category: "saas",
    price: 14900,
    original_price: 19900,
    featured: true,
    features: [
      "Pricing table with plan toggle",
      "Feature and integration sections",
      "Changelog",
      "Docs starter",
      "Blog",
      "Accessible navigation",
      "Lighthouse 95+",
    ],
    included: [...INCLUDED, "Email capture component"],
    tech_stack: [...BASE_STACK, "Next.js", "MDX"],
    tags: ["saas", "startup", "pricing", "marketing"],
    created_at: "2025-09-18T09:00:00.000Z",
  },
  {
    name: "Maison",
    slug: "maison",
    tagline: "A boutique storefront for small product brands",
    description:
      "Maison is an elegant shop front for brands with a story: product pages with galleries and variants, a slide-out cart, collections and an about page that sells the brand. Ready to connect to Stripe or Shopify.",
    category: "ecommerce",
    price: 18900,
    original_price: null,
    featured: true,
    features: [
      "Product pages with variants",
      "Slide-out cart",
      "Collections and filters",
      "Brand story page",
      "Stripe-ready checkout button",
      "Newsletter sign-up",
    ],
    included: [...INCLUDED, "Sample product data"],
    tech_stack: [...BASE_STACK, "Stripe"],
    tags: ["ecommerce", "shop", "fashion", "boutique"],
    created_at: "2025-08-27T09:00:00.000Z",
  },
  {
    name: "Northbound",
    slug: "northbound",
    tagline: "A confident agency site with case studies and services",
    description:
      "Northbound gives a small agency the presence of a big one: a bold services overview, long-form case studies with results, a team page and a contact flow that qualifies leads before they reach your inbox.",
    category: "agency",
    price: 16900,
    original_price: 22900,
    featured: true,
    features: [
      "Services overview",
      "Long-form case studies",
      "Team page",
      "Lead-qualifying contact form",
      "Client logo wall",
      "Animated section reveals",
    ],
    included: INCLUDED,
    tech_stack: [...BASE_STACK, "Framer Motion"],
    tags: ["agency", "studio", "case studies", "services"],
    created_at: "2025-08-05T09:00:00.000Z",
  },
  {
    name: "Marginalia",
    slug: "marginalia",
    tagline: "A reading-first blog with newsletter and tags",
    description:
      "Marginalia is a blog template for writers who care about reading comfort: generous measure, footnotes, reading time, tags and a newsletter box that does not shout. Write in MDX and publish in minutes.",
    category: "blog",
    price: 5900,
    original_price: null,
    featured: false,
    features: [
      "MDX posts with footnotes",
      "Tags and archives",
      "Reading time",
      "RSS feed",
      "Newsletter box",
      "Syntax highlighting",
    ],
    included: INCLUDED,
    tech_stack: [...BASE_STACK, "MDX"],
    tags: ["blog", "writing", "newsletter", "mdx"],
    created_at: "2025-07-14T09:00:00.000Z",
  },
  {
    name: "Spark",
    slug: "spark",
    tagline: "A single-page launch site that turns visitors into a waitlist",
    description:
      "Spark is a one-page launch template with a countdown, social proof, FAQ and a waitlist form. Ideal for product launches, events and early-access campaigns that need to ship this week.",
    category: "landing",
    price: 6900,
    original_price: 8900,
    featured: false,
    features: [
      "Waitlist form",
      "Launch countdown",
      "Testimonials",
      "FAQ accordion",
      "Open Graph images",
      "One-file configuration",
    ],
    included: INCLUDED,
    tech_stack: [...BASE_STACK, "Vite"],
    tags: ["landing", "launch", "waitlist", "one page"],
    created_at: "2025-06-30T09:00:00.000Z",
  },
  {
    name: "Folio Mono",
    slug: "folio-mono",
    tagline: "A typographic one-column portfolio for developers",
    description:
      "Folio Mono is a text-first portfolio for developers and writers: projects, writing and a résumé in one fast, monospaced column. No images required, everything readable on any screen.",
    category: "portfolio",
    price: 5900,
    original_price: null,
    featured: false,
    features: ["Projects list", "Writing section", "Printable résumé page", "Keyboard navigation", "Dark mode"],
    included: INCLUDED,
    tech_stack: [...BASE_STACK, "Astro"],
    tags: ["portfolio", "developer", "minimal"],
    created_at: "2025-06-11T09:00:00.000Z",
  },
  {
    name: "Ledger",
    slug: "ledger",
    tagline: "A SaaS dashboard marketing site with interactive product tour",
    description:
      "Ledger pairs a polished marketing site with an interactive product tour built from real components, so prospects can click through your app before they sign up. Made for fintech and analytics products.",
    category: "saas",
    price: 24900,
    original_price: null,
    featured: false,
    features: [
      "Interactive product tour",
      "Chart components",
      "Security and compliance page",
      "Pricing with usage calculator",
      "Customer stories",
      "Careers page",
      "Status badge",
    ],
    included: [...INCLUDED, "Component library"],
    tech_stack: [...BASE_STACK, "Recharts"],
    tags: ["saas", "fintech", "dashboard", "analytics"],
    created_at: "2025-05-20T09:00:00.000Z",
  },
  {
    name: "Harvest Market",
    slug: "harvest-market",
    tagline: "A warm storefront for food, drink and local makers",
    description:
      "Harvest Market is an e-commerce template for food and drink brands: recipe pages alongside products, subscription boxes, local delivery notes and a friendly checkout flow.",
    category: "ecommerce",
    price: 12900,
    original_price: null,
    featured: false,
    features: ["Product and recipe pages", "Subscription box page", "Delivery zone notice", "Reviews", "Gift cards"],
    included: INCLUDED,
    tech_stack: [...BASE_STACK, "Stripe"],
    tags: ["ecommerce", "food", "subscriptions"],
    created_at: "2025-04-29T09:00:00.000Z",
  },
  {
    name: "Studio Grid",
    slug: "studio-grid",
    tagline: "A modular agency site for design and branding studios",
    description:
      "Studio Grid is built from a flexible modular grid: mix project tiles, quotes and services on any page. Made for branding studios that want a site as considered as their identity work.",
    category: "agency",
    price: 9900,
    original_price: null,
    featured: false,
    features: [
      "Modular page builder sections",
      "Project tiles",
      "Services and process pages",
      "Careers page",
      "Contact form",
    ],
    included: INCLUDED,
    tech_stack: [...BASE_STACK, "Remix"],
    tags: ["agency", "branding", "grid"],
    created_at: "2025-04-08T09:00:00.000Z",
  },
];
