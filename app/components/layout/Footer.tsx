import { Link } from "@remix-run/react";
import { useStudio } from "~/lib/use-studio";
import { Logo } from "./Logo";

const PAGES = [
  ["/", "Home"],
  ["/work", "Work"],
  ["/packages", "Packages"],
  ["/process", "Process"],
] as const;
const LEGAL = [
  ["/privacy", "Privacy Policy"],
  ["/terms", "Terms of Service"],
] as const;

export function Footer() {
  const year = new Date().getFullYear();
  const site = useStudio();
  return (
    <footer className="mt-24 border-t border-line bg-paper-sunk/60">
      <div className="container-page grid gap-12 py-16 md:grid-cols-[1.4fr_1fr_1fr]">
        <div className="max-w-sm">
          <Logo />
          {site.footerLine ? <p className="mt-5 text-sm leading-relaxed text-ink-muted">{site.footerLine}</p> : null}
        </div>
        <nav aria-labelledby="footer-pages">
          <h2 id="footer-pages" className="eyebrow font-sans">
            Pages
          </h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            {PAGES.map(([to, label]) => (
              <li key={to}>
                <Link className="text-ink-soft hover:text-ink" to={to}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-connect">
          <h2 id="footer-connect" className="eyebrow font-sans">
            Connect
          </h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            <li>
              <Link className="text-ink-soft hover:text-ink" to="/booking">
                Book Consultation
              </Link>
            </li>
            {site.socialUrl ? (
              <li>
                <a
                  className="text-ink-soft hover:text-ink"
                  href={site.socialUrl}
                  rel="noopener noreferrer"
                  target="_blank"
                >
                  {site.socialLabel || "Social"}
                </a>
              </li>
            ) : null}
            {site.contactEmail ? (
              <li>
                <a className="text-ink-soft hover:text-ink" href={`mailto:${site.contactEmail}`}>
                  {site.contactEmail}
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
      <div className="border-t border-line">
        <div className="container-page flex flex-col gap-3 py-6 text-xs text-ink-muted sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {year} {site.name}. All rights reserved.
          </p>
          <ul className="flex gap-6">
            {LEGAL.map(([to, label]) => (
              <li key={to}>
                <Link className="hover:text-ink" to={to}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
