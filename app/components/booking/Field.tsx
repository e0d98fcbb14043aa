import type { InputHTMLAttributes, ReactNode } from "react";

export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="field-error" role="alert">
      {error}
    </p>
  ) : null;
}

export function Field({
  id,
  label,
  error,
  hint,
  children,
  optional,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  optional?: boolean;
}) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
        {optional ? <span className="ml-1 font-normal text-ink-muted">(optional)</span> : null}
      </label>
      {children}
      {hint ? <div className="mt-1.5 text-sm text-ink-muted">{hint}</div> : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** Props that tie an input to its error message for screen readers. */
export function describedBy(id: string, error?: string) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

/**
 * A one-line input in its Field: named as its id, showing what was typed, its message tied to it for
 * screen readers. Other input attributes (type, autoComplete, min, placeholder...) pass through.
 */
export function InputField({
  id,
  label,
  value,
  error,
  hint,
  optional,
  ...input
}: {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "value" | "defaultValue" | "className">) {
  return (
    <Field id={id} label={label} optional={optional} error={error} hint={hint}>
      <input id={id} name={id} {...input} defaultValue={value} className="field-input" {...describedBy(id, error)} />
    </Field>
  );
}
