/**
 * A client's words (Settings → Testimonials), shown on the home page and the process page when there
 * are any. The sample studio's are placeholders with generic names (SPEC.md: three client quotes).
 */
export type Testimonial = { id: string; quote: string; name: string; role: string };

export const sampleTestimonials: Testimonial[] = [
  {
    id: "1",
    quote:
      "The process was the calmest website project we have ever run. Fixed price, clear dates, and the result looks better than we imagined.",
    name: "Founder",
    role: "A B2B software startup",
  },
  {
    id: "2",
    quote:
      "We finally have a site that explains what we do. Enquiries went up within the first month, and they are the right kind of enquiries.",
    name: "Managing partner",
    role: "A professional services firm",
  },
  {
    id: "3",
    quote:
      "Every question answered the same day, every deadline met. It felt like having a senior designer on the team.",
    name: "Head of marketing",
    role: "An independent product brand",
  },
];
