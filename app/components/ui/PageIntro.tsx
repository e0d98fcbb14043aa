import type { ReactNode } from "react";

export function PageIntro({ eyebrow, title, children }: { eyebrow: string; title: ReactNode; children?: ReactNode }) {
  return (
    <header className="container-page pb-12 pt-16 sm:pb-16 sm:pt-24">
      <p className="eyebrow">{eyebrow}</p>
      <h1 className="mt-4 max-w-4xl text-[2.75rem] leading-[1.04] sm:text-7xl">{title}</h1>
      {children ? <div className="mt-6 max-w-prose text-lg leading-relaxed text-ink-muted">{children}</div> : null}
    </header>
  );
}
