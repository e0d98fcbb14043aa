import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigationType,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { ConsoleHeader } from "~/components/admin/ConsoleHeader";
import { Footer } from "~/components/layout/Footer";
import { Header } from "~/components/layout/Header";
import { GeneralErrorBoundary } from "~/components/ui/ErrorBoundary";
import { useNonce } from "~/lib/nonce";
import stylesheet from "~/tailwind.css";
import { getSessionUser } from "../server/http/session.server";
import { env } from "../server/env.server";
import { currentStudio } from "../server/studio/current.server";
import { publicIdentity } from "../server/studio/studio.server";

export const links: LinksFunction = () => [
  // The stylesheet first: it blocks the first paint, the fonts only swap in.
  { rel: "stylesheet", href: stylesheet },
  {
    rel: "preload",
    href: "/fonts/inter-latin-wght-subset.woff2",
    as: "font",
    type: "font/woff2",
    crossOrigin: "anonymous",
  },
  {
    rel: "preload",
    href: "/fonts/fraunces-latin-400-normal-subset.woff2",
    as: "font",
    type: "font/woff2",
    crossOrigin: "anonymous",
  },
  // The logo's italic word is on every page: preloaded, it no longer waits for the stylesheet.
  {
    rel: "preload",
    href: "/fonts/fraunces-latin-400-italic-ascii.woff2",
    as: "font",
    type: "font/woff2",
    crossOrigin: "anonymous",
  },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** The signed-in visitor, for the header's account menu on every page (none without a session cookie). */
export async function loader({ request }: LoaderFunctionArgs) {
  const [user, studio] = await Promise.all([getSessionUser(request).catch(() => null), currentStudio()]);
  return {
    year: new Date().getUTCFullYear(),
    appUrl: env().APP_URL,
    studio: publicIdentity(studio),
    account: user ? { email: user.email, isAdmin: user.isAdmin } : null,
  };
}

/** The console's route data when any of its screens is shown (its header replaces the site's). */
type ConsoleData = { admin: { email: string; isSuperAdmin: boolean } } | undefined;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<typeof loader>("root");
  const account = root?.account ?? null;
  const consoleView = useRouteLoaderData<ConsoleData>("routes/admin");
  // A page whose route says `handle.scripts === false` is plain HTML: no script at all (the
  // client's proposal, issue 44.9); its forms post as they are.
  const scripts = !useMatches().some((m) => (m.handle as { scripts?: boolean } | undefined)?.scripts === false);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#f7f4ee" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-full bg-ink px-4 py-2 text-paper focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to content
        </a>
        {consoleView ? (
          <ConsoleHeader email={consoleView.admin.email} isSuperAdmin={consoleView.admin.isSuperAdmin} />
        ) : (
          <Header account={account} />
        )}
        {children}
        {consoleView ? null : <Footer />}
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

/**
 * Scrolls to the top on every forward navigation to another page (Back/Forward restore their
 * position). Only a new pathname does: a form posted to its own page, or a link that keeps the
 * scroll (`preventScrollReset`), stays where it is, the first time too (the navigation's type
 * changing from the first load's POP is not a new page).
 */
function useScrollTopOnNavigate() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  const typeNow = useRef(type);
  typeNow.current = type;
  useEffect(() => {
    if (typeNow.current !== "POP") window.scrollTo({ top: 0, left: 0, behavior: "instant" as ScrollBehavior });
  }, [pathname]);
}

export default function App() {
  const { pathname } = useLocation();
  useScrollTopOnNavigate();
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <main id="main" key={pathname} className="page-fade flex-1">
      <Outlet />
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main" className="page-fade flex-1">
      <GeneralErrorBoundary />
    </main>
  );
}
