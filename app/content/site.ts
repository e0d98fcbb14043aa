/** Studio identity, shared by the layout and the pages (client-safe). */
export const site = {
  name: "Studio Rowan",
  logoWords: ["Studio", "Rowan"] as const,
  designer: "Rowan Hale",
  role: "Independent designer & developer",
  bio: [
    "I'm Rowan Hale, an independent designer and developer. For more than ten years I have helped founders and growing companies turn fuzzy ideas into websites that earn their keep.",
    "I work alone on purpose: you talk to the person who designs and builds your site, every time. Fixed prices, clear timelines and a process that leaves nothing to guesswork.",
  ],
  socialUrl: "https://www.linkedin.com/",
  socialLabel: "LinkedIn",
  contactEmail: "hello@studiorowan.example",
  footerLine:
    "Boutique digital design for companies that care about details. Fixed-price packages, transparent process, quality-focused execution.",
  trustedBy: ["Northwind", "Lumen Labs", "Fieldnote", "Harbor & Co", "Kinetic"],
} as const;
