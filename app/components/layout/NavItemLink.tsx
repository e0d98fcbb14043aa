import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { isActive, type NavItem } from "./nav";

/**
 * A navigation item's link, marked aria-current="page" where the visitor is (isActive); its classes
 * may follow that state. It shows the item's label unless given children.
 */
export function NavItemLink({
  item,
  pathname,
  className,
  children,
}: {
  item: NavItem;
  pathname: string;
  className: string | ((active: boolean) => string);
  children?: ReactNode;
}) {
  const active = isActive(item.to, pathname);
  return (
    <Link
      to={item.to}
      aria-current={active ? "page" : undefined}
      className={typeof className === "function" ? className(active) : className}
    >
      {children ?? item.label}
    </Link>
  );
}
