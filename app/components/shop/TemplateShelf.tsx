import { TemplateCard, type CardTemplate } from "./TemplateCard";

/**
 * A titled row of template cards (the shop's "My templates" and "Featured templates", a template's
 * "You might also like"). The first `eager` cards' pictures load at once; `wide` fits four a row.
 */
export function TemplateShelf({
  id,
  title,
  templates,
  className,
  wide = false,
  eager = 0,
}: {
  id: string;
  title: string;
  templates: CardTemplate[];
  className: string;
  wide?: boolean;
  eager?: number;
}) {
  return (
    <section className={className} aria-labelledby={id}>
      <h2 id={id} className="text-3xl">
        {title}
      </h2>
      <ul className={`mt-6 grid gap-6 sm:grid-cols-2 ${wide ? "lg:grid-cols-4" : "lg:grid-cols-3"}`}>
        {templates.map((t, i) => (
          <TemplateCard key={t.id} t={t} eager={i < eager} />
        ))}
      </ul>
    </section>
  );
}
