import { CheckCircle2, X, XCircle } from "lucide-react";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";

type Toast = { id: number; kind: "success" | "error"; message: string };
type Toasts = { success: (message: string) => void; error: (message: string) => void };

const ToastContext = createContext<Toasts | null>(null);

/** How long a toast stays: errors longer, since they need reading. */
const SUCCESS_MS = 4000;
const ERROR_MS = 8000;

/**
 * Toasts for the console: a success after each action (announced politely, `role="status"`), an
 * error when one fails (`role="alert"`). They stack at the bottom of the screen, above dialogs,
 * and can be dismissed.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const push = useCallback((kind: Toast["kind"], message: string) => {
    const id = next.current++;
    setToasts((all) => [...all.slice(-3), { id, kind, message }]);
  }, []);
  const api = useMemo<Toasts>(() => ({ success: (m) => push("success", m), error: (m) => push("error", m) }), [push]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex flex-col items-center gap-2 p-4 sm:items-end sm:p-6">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), toast.kind === "error" ? ERROR_MS : SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  const error = toast.kind === "error";
  const Icon = error ? XCircle : CheckCircle2;
  return (
    <div
      role={error ? "alert" : "status"}
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-card border px-4 py-3 text-sm shadow-lift ${
        error ? "border-danger/30 bg-danger-soft text-danger" : "border-line bg-ink text-paper"
      }`}
    >
      <Icon aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      <p className="min-w-0 flex-1 break-words">{toast.message}</p>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className="-m-1 rounded-full p-1 opacity-80 hover:opacity-100"
        aria-label="Dismiss"
      >
        <X aria-hidden="true" className="h-4 w-4" />
      </button>
    </div>
  );
}

/** The console's toasts (inside a ToastProvider). */
export function useToast(): Toasts {
  const toasts = useContext(ToastContext);
  if (!toasts) throw new Error("useToast outside a ToastProvider");
  return toasts;
}
