export type CaseStudy = {
  id: string;
  title: string;
  client: string;
  industry: string;
  challenge: string;
  solution: string;
  result: string;
  tags: string[];
  metrics: { label: string; value: string }[];
  /** The art shown when the study has no image yet. */
  gradient: [string, string];
  /** Up to 6 pictures (stored in the `studio-images` bucket), each with its alt text. */
  images: { url: string; alt: string }[];
};

/** The sample studio's placeholder case studies with generic text (SPEC.md §1). */
export const sampleCaseStudies: CaseStudy[] = [
  {
    id: "1",
    title: "A clearer story for a B2B SaaS platform",
    client: "A B2B SaaS startup",
    industry: "Software",
    challenge:
      "The product had outgrown its first website. Visitors could not tell what it did within the first scroll, and trial sign-ups had flattened for two quarters.",
    solution:
      "We rebuilt the narrative around three customer outcomes, designed a modular page system the team can extend, and replaced stock imagery with real product moments.",
    result:
      "Within eight weeks of launch the site converted noticeably more visitors into trials, and the sales team reused its sections in their decks.",
    tags: ["SaaS", "Messaging", "Design system"],
    metrics: [
      { label: "Trial sign-ups", value: "+42%" },
      { label: "Time on page", value: "+31%" },
      { label: "Delivery", value: "7 weeks" },
    ],
    gradient: ["#d7dcff", "#4338ca"],
    images: [],
  },
  {
    id: "2",
    title: "An online shop for an independent product brand",
    client: "An independent product brand",
    industry: "E-commerce",
    challenge:
      "Most sales still came through marketplaces, with thin margins and no direct relationship with customers. Their own shop felt like an afterthought.",
    solution:
      "A focused storefront with storytelling product pages, bundles and a checkout trimmed to the essentials, launched with a simple email capture flow.",
    result: "Direct orders overtook marketplace orders within a season, at a healthier margin.",
    tags: ["E-commerce", "Brand", "Conversion"],
    metrics: [
      { label: "Direct revenue", value: "+68%" },
      { label: "Checkout completion", value: "+24%" },
      { label: "Delivery", value: "6 weeks" },
    ],
    gradient: ["#ffe3b3", "#c2410c"],
    images: [],
  },
  {
    id: "3",
    title: "A portfolio that wins bigger briefs for a creative studio",
    client: "A small creative studio",
    industry: "Creative services",
    challenge:
      "Great work hidden behind a slow, image-heavy site that showed projects but never explained the thinking or the results.",
    solution:
      "Case-study pages that lead with the problem and the outcome, a fast image pipeline, and a contact form that qualifies enquiries.",
    result: "Fewer but far better enquiries, and the studio raised its minimum project size.",
    tags: ["Portfolio", "Performance", "Lead quality"],
    metrics: [
      { label: "Qualified enquiries", value: "+55%" },
      { label: "Page weight", value: "−63%" },
      { label: "Delivery", value: "3 weeks" },
    ],
    gradient: ["#f6d5c4", "#b4421a"],
    images: [],
  },
  {
    id: "4",
    title: "A calmer booking experience for a professional practice",
    client: "A professional services practice",
    industry: "Professional services",
    challenge:
      "Prospective clients called to ask questions the website should have answered, and online booking was buried three clicks deep.",
    solution:
      "A plain-language services section, transparent pricing and a booking flow available from every page, written and designed with the team.",
    result: "Phone enquiries dropped, online bookings became the main channel, and the team got hours back every week.",
    tags: ["Services", "Booking", "Content"],
    metrics: [
      { label: "Online bookings", value: "+2.3×" },
      { label: "Support calls", value: "−40%" },
      { label: "Delivery", value: "5 weeks" },
    ],
    gradient: ["#d9f2e6", "#047857"],
    images: [],
  },
];

/** Gradients given to new case studies in turn (the art until a picture is added). */
export const CASE_GRADIENTS: [string, string][] = sampleCaseStudies.map((c) => c.gradient);
