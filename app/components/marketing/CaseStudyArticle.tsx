import type { CaseStudy } from "#domain/sample/case-studies";
import { CaseCover, CasePicture } from "./Section";

export function CaseStudyBody({ study, headingLevel = 3 }: { study: CaseStudy; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <>
      <dl className="grid grid-cols-3 gap-4 border-y border-line py-6">
        {study.metrics.map((m) => (
          <div key={m.label}>
            <dt className="text-xs font-medium uppercase tracking-wider text-ink-muted">{m.label}</dt>
            <dd className="mt-1 whitespace-nowrap font-display text-2xl text-ink sm:text-3xl">{m.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-8 grid gap-8 md:grid-cols-3">
        <div>
          <H className="font-sans text-sm font-semibold uppercase tracking-wider text-ink">Challenge</H>
          <p className="mt-2 leading-relaxed text-ink-soft">{study.challenge}</p>
        </div>
        <div>
          <H className="font-sans text-sm font-semibold uppercase tracking-wider text-ink">Solution</H>
          <p className="mt-2 leading-relaxed text-ink-soft">{study.solution}</p>
        </div>
        <div>
          <H className="font-sans text-sm font-semibold uppercase tracking-wider text-ink">Results</H>
          <p className="mt-2 leading-relaxed text-ink-soft">{study.result}</p>
        </div>
      </div>
    </>
  );
}

export function CaseStudyMeta({ study }: { study: CaseStudy }) {
  return (
    <>
      <p className="text-sm text-ink-muted">
        <span className="font-semibold text-ink">{study.client}</span> · {study.industry}
      </p>
      <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
        {study.tags.map((t) => (
          <li key={t} className="rounded-full border border-line-strong px-3 py-1 text-xs font-medium text-ink-soft">
            {t}
          </li>
        ))}
      </ul>
    </>
  );
}

export function CaseStudyArt({ study, index, aspect }: { study: CaseStudy; index: number; aspect?: string }) {
  return (
    <div className="overflow-hidden rounded-card border border-line">
      <CaseCover
        study={study}
        label={`Illustration of project ${index}: ${study.industry}`}
        index={index}
        aspect={aspect}
      />
    </div>
  );
}

/** The pictures after the first, on a case study's own page. */
export function CaseStudyGallery({ study }: { study: CaseStudy }) {
  const rest = study.images.slice(1);
  if (!rest.length) return null;
  return (
    <ul className="mt-6 grid gap-6 sm:grid-cols-2" aria-label="More pictures of this project">
      {rest.map((image) => (
        <li key={image.url} className="overflow-hidden rounded-card border border-line">
          <CasePicture image={image} aspect="aspect-[4/3]" />
        </li>
      ))}
    </ul>
  );
}
