import { Link } from "@remix-run/react";
import { site } from "~/content/site";

/** Two stacked words that swap colours on hover (0.6 s). */
export function Logo() {
  return (
    <Link
      to="/"
      className="group flex flex-col font-display text-[1.35rem] leading-[0.95] tracking-tight"
      aria-label={`${site.logoWords[0]} ${site.logoWords[1]}, home`}
    >
      <span className="text-ink transition-colors duration-600 group-hover:text-accent">{site.logoWords[0]}</span>{" "}
      <span className="italic text-accent transition-colors duration-600 group-hover:text-ink">
        {site.logoWords[1]}
      </span>
    </Link>
  );
}
