import type { LegalSection } from "#domain/sample/legal";
import { useStudio } from "~/lib/use-studio";

export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro?: string;
  sections: LegalSection[];
}) {
  const studio = useStudio();
  return (
    <article className="container-page pb-8 pt-16 sm:pt-24">
      <header className="max-w-prose">
        <p className="eyebrow">Legal</p>
        <h1 className="mt-4 text-5xl leading-tight sm:text-6xl">{title}</h1>
        <p className="mt-4 text-sm text-ink-muted">{updated}</p>
        {intro ? <p className="mt-8 text-lg leading-relaxed text-ink-soft">{intro}</p> : null}
      </header>
      {!intro && !sections.length ? (
        <p className="mt-12 max-w-prose text-lg leading-relaxed text-ink-soft">
          This page is being written.{" "}
          {studio.contactEmail ? (
            <>
              Questions in the meantime:{" "}
              <a className="link-underline" href={`mailto:${studio.contactEmail}`}>
                {studio.contactEmail}
              </a>
              .
            </>
          ) : null}
        </p>
      ) : null}
      <div className="mt-12 max-w-prose space-y-10">
        {sections.map((s, i) => (
          <section key={s.heading} aria-labelledby={`legal-${i}`}>
            <h2 id={`legal-${i}`} className="text-2xl">
              {s.heading}
            </h2>
            {s.paragraphs.map((p) => (
              <p key={p} className="mt-3 leading-relaxed text-ink-soft">
                {p}
              </p>
            ))}
          </section>
        ))}
      </div>
    </article>
  );
}
