import { Link, useFetcher } from "@remix-run/react";
import { Loader2, Mail, RotateCw } from "lucide-react";
import { useEffect, useState } from "react";

export type SignInResult = { ok: true; email: string } | { ok: false; error: string; email?: string } | undefined;

const AUTH_REDIRECT_KEY = "auth_redirect";

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.8z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z"
      />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z" />
    </svg>
  );
}

/**
 * The sign-in form: Continue with Google, or an emailed magic link. A fetcher form, so it
 * works as a plain post to /auth/email without JavaScript.
 */
export function SignInPanel({
  result: serverResult,
  googleConfigured,
  emailSignIn = true,
  redirectTo,
  title = "Sign in to purchase",
  headingId = "signin-title",
  initialError,
}: {
  result?: SignInResult;
  googleConfigured: boolean;
  /**
   * False when the site cannot send mail (production without a provider): the form says email
   * sign-in is unavailable instead of offering a link that would never arrive.
   */
  emailSignIn?: boolean;
  redirectTo?: string;
  title?: string;
  headingId?: string;
  /** A failure the page already knows of (e.g. Google sign-in), shown until a new attempt answers. */
  initialError?: string | null;
}) {
  const fetcher = useFetcher<{ ok: boolean; email?: string; error?: string }>();
  const [googleError, setGoogleError] = useState<string | null>(null);
  // "Use another email" goes back to the form until the next link is sent.
  const [anotherEmail, setAnotherEmail] = useState(false);
  const result = (fetcher.data as SignInResult) ?? serverResult;
  useEffect(() => {
    if (fetcher.data?.ok) setAnotherEmail(false);
  }, [fetcher.data]);
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    // Remember where to come back to (SPEC.md §6 auth_redirect); the server keeps its own copy.
    if (redirectTo) {
      try {
        window.sessionStorage.setItem(AUTH_REDIRECT_KEY, redirectTo);
      } catch {
        /* storage unavailable: the server-side copy still works */
      }
    }
  }, [redirectTo]);

  if (result?.ok && !anotherEmail) {
    return (
      <SentPanel
        email={result.email}
        headingId={headingId}
        redirectTo={redirectTo}
        onAnotherEmail={() => setAnotherEmail(true)}
      />
    );
  }

  const error = (result && !result.ok ? result.error : null) ?? googleError ?? initialError ?? null;

  return (
    <div className="card p-8 shadow-raised">
      <h2 id={headingId} className="text-3xl">
        {title}
      </h2>
      <p className="mt-2 text-sm text-ink-muted">Sign in to buy templates and download them any time.</p>

      {error ? (
        <div
          role="alert"
          className="mt-5 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
        >
          {error}
        </div>
      ) : null}

      <form method="post" action="/auth/google" className="mt-6">
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <button
          type="submit"
          className="btn-ghost w-full py-3"
          disabled={!googleConfigured}
          aria-describedby={googleConfigured ? undefined : "google-not-configured"}
          onClick={() => setGoogleError(null)}
        >
          <GoogleMark />
          Continue with Google
        </button>
        {googleConfigured ? null : (
          <p id="google-not-configured" className="mt-2 text-center text-xs text-ink-muted">
            Google sign-in is not configured on this site yet.{emailSignIn ? " Use the email link below." : ""}
          </p>
        )}
      </form>

      <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-widest text-ink-faint">
        <span className="h-px flex-1 bg-line" />
        or
        <span className="h-px flex-1 bg-line" />
      </div>

      {emailSignIn ? null : (
        <p
          id={`${headingId}-email-unavailable`}
          className="rounded-field border border-line-strong bg-paper-sunk px-4 py-3 text-sm text-ink-muted"
        >
          <strong className="font-semibold text-ink">Email sign-in is unavailable.</strong> This site cannot send email
          yet, so no sign-in link can reach you.
          {googleConfigured ? " Continue with Google instead." : " Please try again later."}
        </p>
      )}
      {emailSignIn ? (
        <fetcher.Form method="post" action="/auth/email" noValidate={false}>
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <label htmlFor={`${headingId}-email`} className="field-label">
            Email
          </label>
          <input
            id={`${headingId}-email`}
            name="email"
            type="email"
            required
            autoComplete="email"
            defaultValue={result && !result.ok ? result.email : undefined}
            autoFocus={anotherEmail}
            placeholder="you@company.com"
            className="field-input"
          />
          <button type="submit" className="btn-dark mt-4 w-full py-3" disabled={busy} aria-busy={busy}>
            {busy ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
            {busy ? "Sending..." : "Send magic link"}
          </button>
        </fetcher.Form>
      ) : null}

      <p className="mt-6 text-center text-xs leading-relaxed text-ink-muted">
        By continuing you agree to our{" "}
        <Link to="/terms" className="link-underline">
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link to="/privacy" className="link-underline">
          Privacy Policy
        </Link>
        .
      </p>
    </div>
  );
}

/**
 * "Check your email": where the link went and for how long it works, then Resend (the same
 * address again, within the sign-in limits) and Use another email. Both work without JavaScript:
 * Resend posts to /auth/email, Use another email opens the empty form there.
 */
function SentPanel({
  email,
  headingId,
  redirectTo,
  onAnotherEmail,
}: {
  email: string;
  headingId: string;
  redirectTo?: string;
  onAnotherEmail: () => void;
}) {
  const resend = useFetcher<{ ok: boolean; error?: string }>();
  const busy = resend.state !== "idle";
  return (
    <div className="card p-8 text-center shadow-raised" role="status">
      <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-shop-soft text-shop">
        <Mail aria-hidden="true" className="h-6 w-6" />
      </div>
      <h2 id={headingId} className="mt-5 text-3xl">
        Check your email
      </h2>
      <p className="mt-3 text-ink-muted">
        We sent a sign-in link to <strong className="font-semibold text-ink">{email}</strong>. It works once and expires
        in 10 minutes.
      </p>
      {resend.data?.ok && !busy ? <p className="mt-4 text-sm font-medium text-shop">We sent you a new link.</p> : null}
      {resend.data && !resend.data.ok && !busy ? (
        <p
          role="alert"
          className="mt-4 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
        >
          {resend.data.error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-col items-center justify-center gap-3 sm:flex-row">
        <resend.Form method="post" action="/auth/email">
          <input type="hidden" name="email" value={email} />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <button type="submit" className="btn-ghost px-5" disabled={busy} aria-busy={busy}>
            {busy ? (
              <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" />
            ) : (
              <RotateCw aria-hidden="true" className="h-4 w-4" />
            )}
            {busy ? "Sending..." : "Resend"}
          </button>
        </resend.Form>
        <Link
          to="/auth/email"
          className="text-sm font-semibold text-ink underline decoration-line-strong underline-offset-4 hover:decoration-ink"
          onClick={(e) => {
            e.preventDefault();
            onAnotherEmail();
          }}
        >
          Use another email
        </Link>
      </div>
    </div>
  );
}
