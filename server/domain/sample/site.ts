import { fillPlaceholders } from "../placeholders";

/**
 * The studio's identity as the owner edits it (Settings → Studio) and as it is stored; the sample
 * studio's values are what a new data folder starts with. Client-safe.
 */
export type StudioIdentity = {
  name: string;
  designer: string;
  role: string;
  bio: string[];
  contactEmail: string;
  socialUrl: string;
  socialLabel: string;
  footerLine: string;
  trustedBy: string[];
  /** The scheduling page embedded at the end of the booking; empty: CALENDLY_URL's. */
  calendarUrl: string;
};

export const sampleIdentity: StudioIdentity = {
  name: "Studio Rowan",
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
  calendarUrl: "",
};

/** What every page's layout shows of the studio (header, footer, titles): sent with the root loader. */
export type PublicIdentity = Pick<
  StudioIdentity,
  "name" | "designer" | "role" | "contactEmail" | "socialUrl" | "socialLabel" | "footerLine"
>;

/** The wordmark's two stacked words: the name's first word, then the rest (one word: it alone). */
export function logoWords(name: string): [string, string] {
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return [words[0] ?? "", ""];
  return [words[0], words.slice(1).join(" ")];
}

/** `{studio}`, `{designer}` and `{email}` in an owner's text, filled in literally (the sample legal text uses them). */
export function fillStudio(text: string, s: Pick<StudioIdentity, "name" | "designer" | "contactEmail">): string {
  return fillPlaceholders(text, { studio: s.name, designer: s.designer || s.name, email: s.contactEmail });
}
