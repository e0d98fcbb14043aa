export const promises = [
  {
    title: "Fixed price",
    text: "You know the full price before we start. Scope is written down, and anything new is quoted before it is built.",
  },
  {
    title: "Fast delivery",
    text: "Most websites launch in 2-8 weeks. Every phase has a date, and you always know what happens next.",
  },
  {
    title: "No scope creep",
    text: "Clear deliverables, a set number of revision rounds and quality-focused execution: no surprises, no drift.",
  },
];

export const phases = [
  {
    number: "01",
    title: "Discovery",
    duration: "Week 1",
    description:
      "We clarify goals, audience and what success looks like, then agree on the sitemap, scope and timeline.",
    deliverables: ["Project brief", "Sitemap", "Fixed quote and timeline"],
  },
  {
    number: "02",
    title: "Design",
    duration: "Weeks 2-4",
    description:
      "Wireframes become high-fidelity designs for every key page, refined with you over the agreed revision rounds.",
    deliverables: ["Wireframes", "Design concepts", "Approved page designs"],
  },
  {
    number: "03",
    title: "Build",
    duration: "Weeks 3-7",
    description: "The approved design is built as a fast, accessible, responsive website you can edit yourself.",
    deliverables: ["Responsive build", "CMS setup", "Staging site for review"],
  },
  {
    number: "04",
    title: "Launch",
    duration: "Final week",
    description: "We test on real devices, set up analytics and SEO basics, go live and hand over everything you need.",
    deliverables: ["Launch", "Analytics", "Handover and training"],
  },
];
