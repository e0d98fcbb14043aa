import { X } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";

/** Whether the page has hydrated (the root marks <html data-hydrated> once it has). */
const hydrated = () => typeof document !== "undefined" && document.documentElement.dataset.hydrated === "true";

/**
 * A modal dialog that traps focus, closes with Escape and returns focus where it was. Once the
 * page has hydrated it is rendered at the end of <body> (above any sticky header, whatever stacking
 * context it was opened from), and everything else on the page is inert while it is open. A dialog
 * opened after hydration is there from its first frame; one the server rendered open moves there
 * once the page has hydrated (what it holds is mounted again then, before anyone types in it).
 */
export function Modal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const overlay = useRef<HTMLDivElement>(null);
  const [portal, setPortal] = useState(hydrated);
  useEffect(() => setPortal(true), []);
  useEffect(() => {
    const own = overlay.current;
    if (!portal || !own) return;
    const behind = Array.from(document.body.children).filter(
      (el) => el !== own && !el.contains(own) && !el.hasAttribute("inert"),
    );
    for (const el of behind) el.setAttribute("inert", "");
    return () => {
      for (const el of behind) el.removeAttribute("inert");
    };
  }, [portal]);
  // Focus goes back where it was when the dialog closes (captured once, before the move to <body>).
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    return () => previous?.focus();
  }, []);
  useEffect(() => {
    const el = ref.current;
    const focusables = () =>
      Array.from(
        el?.querySelectorAll<HTMLElement>(
          'a[href], button:not([disabled]), input:not([type="hidden"]):not([disabled]), select, textarea',
        ) ?? [],
      );
    (focusables()[1] ?? focusables()[0])?.focus();
    function onKey(e: KeyboardEvent) {
      if (e.key === "Escape") {
        e.preventDefault();
        onClose();
        return;
      }
      if (e.key !== "Tab") return;
      const f = focusables();
      if (!f.length) return;
      if (e.shiftKey && document.activeElement === f[0]) {
        e.preventDefault();
        f[f.length - 1].focus();
      } else if (!e.shiftKey && document.activeElement === f[f.length - 1]) {
        e.preventDefault();
        f[0].focus();
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose, portal]);
  const dialog = (
    <div
      ref={overlay}
      className="fixed inset-0 z-50 flex items-end justify-center bg-ink/50 p-0 backdrop-blur-sm sm:items-center sm:p-4"
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        className={`max-h-[92vh] w-full overflow-y-auto rounded-t-card bg-paper-raised p-6 shadow-lift sm:rounded-card sm:p-8 ${wide ? "max-w-3xl" : "max-w-lg"}`}
      >
        <div className="flex items-start justify-between gap-4">
          <h2 className="text-2xl">{title}</h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="rounded-full p-2 text-ink-muted hover:bg-paper-sunk hover:text-ink"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        <div className="mt-5">{children}</div>
      </div>
    </div>
  );
  return portal ? createPortal(dialog, document.body) : dialog;
}

/** A dialog's buttons: Cancel, then the dialog's own action (its primary button). */
export function ModalActions({
  onCancel,
  children,
  className = "mt-6",
}: {
  onCancel: () => void;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`flex justify-end gap-3 ${className}`}>
      <button type="button" className="btn-ghost" onClick={onCancel}>
        Cancel
      </button>
      {children}
    </div>
  );
}
