import { useLocation } from "@remix-run/react";
import { Sparkles } from "lucide-react";
import { ctaNav, mainNav, templatesNav } from "./nav";
import { AccountMenu, type Account } from "./AccountMenu";
import { Logo } from "./Logo";
import { MobileMenu } from "./MobileMenu";
import { NavItemLink } from "./NavItemLink";

export function Header({ account }: { account: Account }) {
  const { pathname } = useLocation();
  return (
    <header className="sticky top-0 z-40 border-b border-line/80 bg-paper/90 backdrop-blur supports-[backdrop-filter]:bg-paper/75">
      <div className="container-page flex h-[4.5rem] items-center justify-between gap-6">
        <Logo />
        <div className="flex items-center gap-3">
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {mainNav.map((item) => (
              <NavItemLink
                key={item.to}
                item={item}
                pathname={pathname}
                className={(active) =>
                  `rounded-full px-3.5 py-2 text-sm font-medium transition-colors ${
                    active ? "bg-ink/[0.06] text-ink" : "text-ink-muted hover:text-ink"
                  }`
                }
              />
            ))}
            <NavItemLink
              item={templatesNav}
              pathname={pathname}
              className={(active) =>
                `ml-1 inline-flex items-center gap-1.5 rounded-full px-3.5 py-2 text-sm font-semibold transition-colors ${
                  active ? "bg-shop-soft text-shop-ink" : "text-shop hover:bg-shop-soft"
                }`
              }
            >
              <Sparkles aria-hidden="true" className="h-4 w-4" />
              {templatesNav.label}
            </NavItemLink>
            <NavItemLink item={ctaNav} pathname={pathname} className="btn-primary ml-3" />
          </nav>
          <AccountMenu account={account} />
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
