/**
 * The legal pages as the owner edits them (Settings → Legal): each page's text in one field, where
 * paragraphs are separated by a blank line and a line starting with "## " is a heading. `{studio}`,
 * `{designer}` and `{email}` stand for the studio's name, designer and contact address. "Last
 * updated" is the date of the last save; the sample's is the date SPEC.md gives.
 */
export type LegalSection = { heading: string; paragraphs: string[] };
export type LegalData = { terms: string; privacy: string };
export type LegalDocument = { title: string; intro: string; sections: LegalSection[] };

export const LEGAL_TITLES = { terms: "Terms of Service", privacy: "Privacy Policy" } as const;
export const SAMPLE_LEGAL_DATE = "2025-10-24";

type SampleDocument = { title: string; intro: string; sections: LegalSection[] };

/** A page's text: paragraphs before the first heading are its introduction. */
export function parseLegal(text: string): Omit<LegalDocument, "title"> {
  const blocks = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  const intro: string[] = [];
  const sections: LegalSection[] = [];
  for (const block of blocks) {
    const lines = block.split("\n");
    if (lines[0].startsWith("## ")) {
      sections.push({ heading: lines[0].slice(3).trim(), paragraphs: [] });
      const rest = lines.slice(1).join(" ").trim();
      if (rest) sections[sections.length - 1].paragraphs.push(rest);
    } else if (sections.length) {
      sections[sections.length - 1].paragraphs.push(lines.join(" "));
    } else {
      intro.push(lines.join(" "));
    }
  }
  return { intro: intro.join("\n\n"), sections };
}

function toText(doc: SampleDocument): string {
  return [doc.intro, ...doc.sections.flatMap((s) => [`## ${s.heading}`, ...s.paragraphs])].join("\n\n");
}

const terms: SampleDocument = {
  title: "Terms of Service",
  intro: `These terms apply to every project, template purchase and consultation with {studio}. They are written to be read: if anything is unclear, ask before you sign.`,
  sections: [
    {
      heading: "1. Who we are",
      paragraphs: [
        `{studio} is a one-person design and development studio run by {designer}. "We", "us" and "the studio" mean {studio}; "you" means the client or buyer.`,
      ],
    },
    {
      heading: "2. Projects and scope",
      paragraphs: [
        "Each website package has a fixed price and a written scope: the pages, revision rounds, features and timeline listed in your proposal. Work outside that scope is quoted separately before it starts, so the price you agreed never changes silently.",
        "Timelines start when the deposit is paid and the content we need is received. Delays in feedback or content move the delivery date by the same amount.",
      ],
    },
    {
      heading: "3. Payment schedule",
      paragraphs: [
        "A deposit of 20-30% of the project price is due before work starts and reserves your place in the schedule. 50% is due at design approval, and the remaining 30-20% is due at final delivery, before the site goes live.",
        "Invoices are due within 3 business days and are paid by card through our payment provider (cards, Apple Pay and Google Pay). Late payment pauses work until the invoice is settled.",
      ],
    },
    {
      heading: "4. Revisions and approvals",
      paragraphs: [
        "Each package includes the revision rounds listed in its scope. A revision round is one consolidated set of feedback on a deliverable. Approval of a design or build stage is given in writing (email is fine) and closes that stage.",
      ],
    },
    {
      heading: "5. Content and materials",
      paragraphs: [
        "You confirm that you hold the rights to the text, images, logos and other materials you send us, and that using them in your website does not infringe anyone else's rights.",
      ],
    },
    {
      heading: "6. Ownership and licences",
      paragraphs: [
        "Once the final invoice is paid, you own the final design and the code written for your project. We keep the right to show the work in our portfolio unless we agree otherwise in writing; projects that accepted the portfolio-feature discount grant this right explicitly.",
        "Third-party fonts, plugins and services remain under their own licences, which we will point out to you.",
      ],
    },
    {
      heading: "7. Website templates",
      paragraphs: [
        "Templates are sold for a one-time payment and include lifetime access to the files and their future updates. Each purchase comes with a licence key and allows use on unlimited projects that you or your clients own; reselling or redistributing the template files themselves is not allowed.",
        "Because templates are digital goods available for download immediately, purchases are not refundable once downloaded, except where the law requires otherwise.",
      ],
    },
    {
      heading: "8. Cancellation",
      paragraphs: [
        "You may cancel a project at any time in writing. The deposit is non-refundable; work completed after the deposit is invoiced in proportion to the stage reached. We may end a project if invoices remain unpaid for 30 days, after written notice.",
      ],
    },
    {
      heading: "9. Liability",
      paragraphs: [
        "We build carefully and test thoroughly, but we cannot guarantee that a website will be free of every error or achieve particular business results. Our total liability for any project is limited to the amount you paid for it. Nothing in these terms limits liability that cannot be limited by law.",
      ],
    },
    {
      heading: "10. Contact",
      paragraphs: [`Questions about these terms: {email}.`],
    },
  ],
};

const privacy: SampleDocument = {
  title: "Privacy Policy",
  intro: `This policy explains what personal data {studio} collects, why, and how long we keep it. We collect as little as we can and never sell it.`,
  sections: [
    {
      heading: "1. What we collect",
      paragraphs: [
        "When you book a consultation: your name, email, company, optional phone number, your answers about the project and any brand files you upload.",
        "When you sign in or buy a template: your email address (and your name if Google shares it), your purchases, licence keys and a record of your downloads.",
      ],
    },
    {
      heading: "2. Why we use it",
      paragraphs: [
        "To prepare for and hold your consultation, to deliver and invoice projects, to give you access to the templates you bought, and to send you the emails those services need. We do not send marketing email without your consent.",
      ],
    },
    {
      heading: "3. Payments",
      paragraphs: [
        "Payments are processed by Stripe. Card details go directly to Stripe and never touch our servers; we receive only the confirmation, the amount and the email used.",
      ],
    },
    {
      heading: "4. Services we rely on",
      paragraphs: [
        "Email is delivered through SendGrid; consultations are scheduled through Calendly; sign-in with Google uses Google's identity service. Each processes only what it needs to provide that service.",
      ],
    },
    {
      heading: "5. Cookies",
      paragraphs: [
        "We use one essential session cookie to keep you signed in and to remember your booking progress. There are no advertising or tracking cookies.",
      ],
    },
    {
      heading: "6. How long we keep it",
      paragraphs: [
        "Project data is kept for the duration of the project plus 1 year. Inquiries that did not become projects are kept for 2 years. Financial records such as invoices and payments are kept for about 7 years, as accounting law requires.",
      ],
    },
    {
      heading: "7. Your rights",
      paragraphs: [
        "You can ask for a copy of your data, ask us to correct it, or ask us to delete it where we are not required to keep it. Write to us and we will answer within 30 days.",
      ],
    },
    {
      heading: "8. Children",
      paragraphs: [
        "Our services are not intended for anyone under 18, and we do not knowingly collect data from children.",
      ],
    },
    {
      heading: "9. Contact",
      paragraphs: [`Privacy questions and requests: {email}.`],
    },
  ],
};

export const sampleLegal: LegalData = { terms: toText(terms), privacy: toText(privacy) };
