import type { Testimonial } from "#domain/sample/testimonials";
import { SectionHeading } from "./Section";

/**
 * The studio's testimonials (Settings → Testimonials) as the home and process pages show them:
 * nothing at all while there are none.
 */
export function Testimonials({
  items,
  eyebrow,
  className,
}: {
  items: Testimonial[];
  eyebrow: string;
  className: string;
}) {
  if (!items.length) return null;
  return (
    <section className={className} aria-labelledby="testimonials-title">
      <SectionHeading id="testimonials-title" eyebrow={eyebrow} title="What clients say" />
      <ul className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {items.map((t) => (
          <li key={t.id} className="card flex flex-col p-8">
            <figure className="flex h-full flex-col">
              <blockquote className="font-display text-xl leading-snug text-ink">
                <p>&ldquo;{t.quote}&rdquo;</p>
              </blockquote>
              <figcaption className="mt-6 text-sm text-ink-muted">
                <span className="font-semibold text-ink">{t.name}</span>
                {t.role ? <span>, {t.role}</span> : null}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
