import { Link } from "@remix-run/react";
import { X } from "lucide-react";
import { useEffect, useRef } from "react";
import { SignInPanel } from "./SignInPanel";

/**
 * The "Sign in to purchase" dialog. Rendered by the server when `?signin=required`, so it works
 * without JavaScript; with JavaScript it traps focus and closes with Escape.
 */
export function SignInDialog({
  closeHref,
  onClose,
  googleConfigured,
  emailSignIn = true,
  redirectTo,
  error,
}: {
  closeHref: string;
  onClose?: () => void;
  googleConfigured: boolean;
  /** False when the site cannot send mail: the form says so instead of offering a link. */
  emailSignIn?: boolean;
  redirectTo?: string;
  /** A spec message to show in the red box (mapped from a code, never raw query text). */
  error?: string | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    el?.querySelector<HTMLInputElement>('input[type="email"]')?.focus();
    // Its code has loaded and taken over the server's markup (it is lazy: until then a click posts
    // the plain form, which works without JavaScript too).
    el?.setAttribute("data-ready", "");
    function onKey(e: KeyboardEvent) {
      if (e.key === "Escape" && onClose) onClose();
      if (e.key !== "Tab" || !el) return;
      const focusables = Array.from(
        el.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([type="hidden"])'),
      );
      if (!focusables.length) return;
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-ink/50 p-4 backdrop-blur-sm sm:items-center">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby="signin-dialog-title"
        className="relative w-full max-w-md animate-fadein"
      >
        <Link
          to={closeHref}
          onClick={(e) => {
            if (onClose) {
              e.preventDefault();
              onClose();
            }
          }}
          className="absolute right-4 top-4 z-10 rounded-full p-2 text-ink-muted hover:bg-paper-sunk hover:text-ink"
          aria-label="Close"
          preventScrollReset
        >
          <X aria-hidden="true" className="h-5 w-5" />
        </Link>
        <SignInPanel
          googleConfigured={googleConfigured}
          emailSignIn={emailSignIn}
          redirectTo={redirectTo}
          headingId="signin-dialog-title"
          initialError={error}
        />
      </div>
    </div>
  );
}
