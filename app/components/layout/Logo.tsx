import { Link } from "@remix-run/react";
import { logoWords } from "#domain/sample/site";
import { useStudio } from "~/lib/use-studio";

/** The studio's name as two stacked words that swap colours on hover (0.6 s). */
export function Logo() {
  const { name } = useStudio();
  const [first, rest] = logoWords(name || "Home");
  return (
    <Link
      to="/"
      className="group flex flex-col font-display text-[1.35rem] leading-[0.95] tracking-tight"
      aria-label={`${name || "Studio"}, home`}
    >
      <span className="text-ink transition-colors duration-600 group-hover:text-accent">{first}</span>
      {rest ? (
        <>
          {" "}
          <span className="italic text-accent transition-colors duration-600 group-hover:text-ink">{rest}</span>
        </>
      ) : null}
    </Link>
  );
}
