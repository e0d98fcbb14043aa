import type { ReactNode } from "react";

export function SectionHeading({
  eyebrow,
  title,
  intro,
  id,
  align = "left",
}: {
  eyebrow: string;
  title: ReactNode;
  intro?: ReactNode;
  id?: string;
  align?: "left" | "center";
}) {
  return (
    <div className={align === "center" ? "mx-auto max-w-2xl text-center" : "max-w-2xl"}>
      <p className="eyebrow">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-4xl leading-[1.08] sm:text-5xl">
        {title}
      </h2>
      {intro ? <p className="mt-4 text-lg leading-relaxed text-ink-muted">{intro}</p> : null}
    </div>
  );
}

/**
 * A case study's placeholder art: its number in the corner and a browser window below it (the
 * window starts under the number at every width, so the number is never half hidden).
 * `aspect` sets the shape: 4:3 in lists, wider on the study's own page.
 */
export function CaseArt({
  gradient,
  label,
  index,
  aspect = "aspect-[4/3]",
}: {
  gradient: [string, string];
  label: string;
  index: number;
  aspect?: string;
}) {
  return (
    <div
      role="img"
      aria-label={label}
      className={`relative ${aspect} w-full overflow-hidden`}
      style={{ backgroundImage: `linear-gradient(140deg, ${gradient[0]}, ${gradient[1]})` }}
    >
      <div
        data-part="window"
        className="absolute inset-x-[12%] bottom-0 top-16 rounded-t-2xl bg-paper-raised/95 shadow-lift sm:top-20"
      >
        <div className="flex gap-1.5 px-4 py-3">
          <span className="h-2 w-2 rounded-full bg-line-strong" />
          <span className="h-2 w-2 rounded-full bg-line-strong" />
          <span className="h-2 w-2 rounded-full bg-line-strong" />
        </div>
        <div className="space-y-2.5 px-6 pt-3">
          <div className="h-3 w-2/3 rounded bg-ink/80" />
          <div className="h-2 w-1/2 rounded bg-ink/20" />
          <div className="h-2 w-5/12 rounded bg-ink/20" />
          <div className="mt-4 h-6 w-24 rounded-full" style={{ background: gradient[1] }} />
        </div>
      </div>
      <span
        data-part="number"
        className="absolute left-5 top-3 font-display text-4xl leading-none text-white/90 mix-blend-overlay sm:text-5xl"
      >
        {String(index).padStart(2, "0")}
      </span>
    </div>
  );
}

/** A case study's cover: its first picture, or the generated art until it has one. */
export function CaseCover({
  study,
  label,
  index,
  aspect = "aspect-[4/3]",
}: {
  study: { gradient: [string, string]; images: { url: string; alt: string }[] };
  label: string;
  index: number;
  aspect?: string;
}) {
  const image = study.images[0];
  if (!image) return <CaseArt gradient={study.gradient} label={label} index={index} aspect={aspect} />;
  return <CasePicture image={image} aspect={aspect} />;
}

/** One picture of a case study, cropped to the frame it is shown in, with its alt text. */
export function CasePicture({ image, aspect }: { image: { url: string; alt: string }; aspect: string }) {
  return (
    <img
      src={image.url}
      alt={image.alt}
      loading="lazy"
      decoding="async"
      width={1200}
      height={900}
      className={`${aspect} h-auto w-full bg-paper-sunk object-cover`}
    />
  );
}
