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

export function CaseArt({ gradient, label, index }: { gradient: [string, string]; label: string; index: number }) {
  return (
    <div
      role="img"
      aria-label={label}
      className="relative aspect-[4/3] w-full overflow-hidden"
      style={{ backgroundImage: `linear-gradient(140deg, ${gradient[0]}, ${gradient[1]})` }}
    >
      <div className="absolute inset-x-[12%] bottom-0 top-[18%] rounded-t-2xl bg-paper-raised/95 shadow-lift">
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
      <span className="absolute left-5 top-4 font-display text-5xl text-white/90 mix-blend-overlay">
        {String(index).padStart(2, "0")}
      </span>
    </div>
  );
}
