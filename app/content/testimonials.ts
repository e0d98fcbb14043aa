/** A client's words on the home page (Settings → Testimonials). The sample studio has none. */
export type Testimonial = { id: string; quote: string; name: string; role: string };

export const sampleTestimonials: Testimonial[] = [];
