import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";

function NotFound({ backHref }: { backHref: string }) {
  return (
    <section className="container-page flex min-h-[60vh] flex-col items-start justify-center py-24">
      <p className="eyebrow">Error 404</p>
      <h1 className="mt-4 max-w-2xl text-5xl leading-[1.05] sm:text-7xl">This page took a different brief.</h1>
      <p className="mt-6 max-w-prose text-lg text-ink-muted">
        The page you were looking for does not exist or has moved. Let&apos;s get you back on track.
      </p>
      <div className="mt-10 flex flex-wrap gap-3">
        <Link to="/" className="btn-dark">
          Go home
        </Link>
        <a
          href={backHref}
          className="btn-ghost"
          onClick={(e) => {
            if (window.history.length > 1) {
              e.preventDefault();
              window.history.back();
            }
          }}
        >
          Go back
        </a>
      </div>
    </section>
  );
}

/** The one error view: 404s get the not-found page, anything else a calm apology. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const data = error.data as { back?: string } | null;
    const back = data && typeof data === "object" && typeof data.back === "string" ? data.back : "/";
    return <NotFound backHref={back} />;
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section className="container-page flex min-h-[60vh] flex-col items-start justify-center py-24">
      <p className="eyebrow">Error {status}</p>
      <h1 className="mt-4 text-5xl leading-tight sm:text-6xl">Something went wrong.</h1>
      <p className="mt-6 max-w-prose text-lg text-ink-muted">
        {isRouteErrorResponse(error) && typeof error.data === "string" && error.data
          ? error.data
          : "An unexpected error occurred. Please try again in a moment."}
      </p>
      <div className="mt-10 flex gap-3">
        <Link to="/" className="btn-dark">
          Go home
        </Link>
      </div>
    </section>
  );
}

/**
 * A route's own 404 (a template or payment link that does not exist): its words and the way
 * back; any other error gets the general view.
 */
export function RouteNotFound({
  title,
  text,
  to,
  action,
}: {
  title: string;
  text: string;
  to: string;
  action: string;
}) {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status !== 404) return <GeneralErrorBoundary />;
  return (
    <section className="container-page flex min-h-[55vh] flex-col items-start justify-center py-24">
      <p className="eyebrow">Error 404</p>
      <h1 className="mt-4 text-5xl">{title}</h1>
      <p className="mt-4 max-w-prose text-lg text-ink-muted">{text}</p>
      <Link to={to} className="btn-dark mt-8">
        {action}
      </Link>
    </section>
  );
}
